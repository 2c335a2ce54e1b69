// npm run cms: the content editor (Decap CMS) beside the site, both on this machine only.
// The development server serves the editor at /admin/ and, at /admin/api/v1, Decap's local
// proxy, which reads and writes content/ in this working tree with no login
// (scripts/cms-proxy.mjs); every published change shows in the page without a restart
// (content/LEEME.md). One process: Ctrl-C or a SIGTERM stops all of it.
//   PORT (5173) for the site and its editor.
process.env.CMS_LOCAL = '1'
await import('./dev.mjs')
