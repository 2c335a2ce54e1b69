// Inlined into the home page's <head> (allowed by its CSP hash), so it runs before the page is
// even parsed: the prerendered form is usable seconds before its island hydrates, and a submit
// in that time must neither be lost nor posted twice. A form marked data-hold-until-hydrated is
// held here and marked data-hold-state="held"; its island sends it once when it takes over
// (data-hold-state="hydrated"). If the scripts never arrive, the form is posted natively after a
// while, exactly as it is with JavaScript off.
;(function () {
  var RELEASE_AFTER_MS = 12000
  var STATE = 'data-hold-state'
  document.addEventListener(
    'submit',
    function (event) {
      var form = event.target
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-hold-until-hydrated'))
        return
      if (form.getAttribute(STATE) === 'hydrated') return
      event.preventDefault()
      event.stopImmediatePropagation()
      if (form.getAttribute(STATE) === 'held') return
      form.setAttribute(STATE, 'held')
      var button = form.querySelector('[type="submit"]')
      if (button) button.setAttribute('aria-disabled', 'true')
      setTimeout(function () {
        if (form.getAttribute(STATE) !== 'held') return
        form.setAttribute(STATE, 'posted')
        HTMLFormElement.prototype.submit.call(form)
      }, RELEASE_AFTER_MS)
    },
    true,
  )
})()
