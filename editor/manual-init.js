// Read by Decap CMS when its bundle loads: wait for formats.ts to start it.
globalThis.CMS_MANUAL_INIT = true

// In development (npm run cms) the editor's preview loads the site's modules through Vite, whose
// client would reload the editor each time a publish changes a content file, taking its notice
// away: the editor is not a page of the site, so Vite's socket here is one that never connects.
globalThis.WebSocket = new Proxy(globalThis.WebSocket, {
  construct: (target, args) =>
    String(args[1]).includes('vite-hmr')
      ? { addEventListener() {}, removeEventListener() {}, send() {}, close() {} }
      : Reflect.construct(target, args),
})
