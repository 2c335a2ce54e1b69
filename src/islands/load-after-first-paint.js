// Inlined into each page's <head> (allowed by its CSP hash). The build puts the page's own
// scripts (its module entry and the chunks it preloads) inside <template data-after-first-paint>,
// where the browser neither fetches nor runs them (pipeline/prerender.mjs). This adds them once
// the first frame has painted: a requestAnimationFrame callback runs just before that paint, and
// a task queued from it runs after. So the first paint, the headline included, waits for no
// script and no request but the HTML's own, on any connection. Without JavaScript nothing here
// runs, and the page is the same.
;(function () {
  function load() {
    var template = document.querySelector('template[data-after-first-paint]')
    if (!template) {
      // Not parsed yet (a frame before the head's end): once it is.
      if (document.readyState === 'loading')
        document.addEventListener('DOMContentLoaded', load, { once: true })
      return
    }
    template.removeAttribute('data-after-first-paint')
    var elements = template.content.children
    for (var i = 0; i < elements.length; i++) {
      // Elements made here, not copies of the template's: those would never run.
      var element = document.createElement(elements[i].localName)
      var attributes = elements[i].attributes
      for (var j = 0; j < attributes.length; j++)
        element.setAttribute(attributes[j].name, attributes[j].value)
      document.head.appendChild(element)
    }
  }
  requestAnimationFrame(function () {
    setTimeout(load, 0)
  })
})()
