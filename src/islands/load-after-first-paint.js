// Inlined into each page's <head> (allowed by its CSP hash). The build puts the page's own
// scripts (its module entry and the chunks it preloads) inside <template data-after-first-paint>,
// where the browser neither fetches nor runs them (pipeline/prerender.mjs), as src/head.ts does
// with the manifest's link. This adds them once
// the browser reports the first contentful paint, the frame that shows the headline: a frame
// painted before it (the root still hidden, a commit the browser deferred) is not enough, and
// scripts requested then compete with the rest of the HTML on a slow connection. A browser
// without paint timing adds them after the first frame instead (a requestAnimationFrame
// callback runs just before that paint, a task queued from it just after). Without JavaScript
// nothing here runs, and the page is the same.
// Then it also marks <html data-painted>, which the pictures below the first screen wait for
// (decision 031).
;(function () {
  function showPictures() {
    document.documentElement.setAttribute('data-painted', '')
  }

  function painted() {
    showPictures()
    load()
  }

  function load() {
    var templates = document.querySelectorAll('template[data-after-first-paint]')
    if (templates.length === 0) {
      // Not parsed yet (a frame before the head's end): once it is.
      if (document.readyState === 'loading')
        document.addEventListener('DOMContentLoaded', load, { once: true })
      return
    }
    for (var t = 0; t < templates.length; t++) {
      templates[t].removeAttribute('data-after-first-paint')
      var elements = templates[t].content.children
      for (var i = 0; i < elements.length; i++) {
        // Elements made here, not copies of the template's: those would never run.
        var element = document.createElement(elements[i].localName)
        var attributes = elements[i].attributes
        for (var j = 0; j < attributes.length; j++)
          element.setAttribute(attributes[j].name, attributes[j].value)
        document.head.appendChild(element)
      }
    }
  }
  var entryTypes = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes
  if (!entryTypes || entryTypes.indexOf('paint') < 0) {
    requestAnimationFrame(function () {
      setTimeout(painted, 0)
    })
    return
  }
  // Its callback is a task of its own, queued once that frame has been presented.
  var observer = new PerformanceObserver(function (list) {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return
    observer.disconnect()
    painted()
  })
  observer.observe({ type: 'paint', buffered: true })
  // Where this paint is never reported (a headless capture in virtual time), the pictures still
  // show a second after the first frame; the scripts keep waiting.
  requestAnimationFrame(function () {
    setTimeout(showPictures, 1000)
  })
})()
