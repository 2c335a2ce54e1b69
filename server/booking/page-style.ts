// The booking page's stylesheet: the site's tokens (src/styles/tokens.css: navy, the one warm
// accent for the action, the system type), a single column that fits 320 px, radio buttons as
// large targets with a visible focus ring. Served from this server, so the site's CSP
// (style-src 'self') takes it as it is.
export const BOOKING_CSS = `
:root { --navy-900:#0b1f3a; --blue-600:#1f5fbf; --blue-50:#e8f0fb; --surface:#f4f7fb;
  --text:#334155; --line:#d5deea; --accent:#ff8a3d; --accent-strong:#ff7424; --on-accent:#0b1f3a;
  --success:#0f7a4a; --success-bg:#e3f4ea; --danger:#b42318; --danger-bg:#fdecea;
  --control-edge:#7a889c; --focus:#1f5fbf;
  --font-sans: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: var(--font-sans); color: var(--text); background: var(--surface);
  line-height: 1.6; }
header { background: var(--navy-900); padding: 1rem 1.25rem; }
.brand { color: #fff; font-weight: 800; letter-spacing: .08em; text-decoration: none; font-size: 1.25rem; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
h1 { color: var(--navy-900); font-size: clamp(1.5rem, 1.2rem + 1.2vw, 1.875rem); line-height: 1.15; margin: .5rem 0 1rem; }
h2 { color: var(--navy-900); font-size: 1.25rem; margin: 2rem 0 .5rem; }
a { color: var(--blue-600); }
fieldset { border: 1px solid var(--line); border-radius: .75rem; background: #fff; margin: 0 0 1rem; padding: .75rem 1rem 1rem; }
legend { color: var(--navy-900); font-weight: 700; padding: 0 .25rem; }
.slots { display: flex; flex-wrap: wrap; gap: .5rem; }
.slot { position: relative; }
.slot input { position: absolute; opacity: 0; inset: 0; margin: 0; cursor: pointer; }
.slot span { display: inline-block; min-width: 5.5rem; min-height: 2.75rem; padding: .5rem .75rem;
  text-align: center; border: 1px solid var(--control-edge); border-radius: .5rem; background: #fff;
  color: var(--navy-900); font-weight: 600; }
.slot input:checked + span { background: var(--navy-900); border-color: var(--navy-900); color: #fff; }
.slot input:focus-visible + span { outline: 3px solid var(--focus); outline-offset: 2px; }
button { font: inherit; font-weight: 700; min-height: 2.75rem; padding: .625rem 1.25rem; border-radius: .5rem;
  border: 0; background: var(--accent); color: var(--on-accent); cursor: pointer; }
button:hover { background: var(--accent-strong); }
button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.cancel { margin-top: 1.5rem; }
.cancel button { background: #fff; color: var(--danger); border: 1px solid var(--danger); }
.notice { padding: .75rem 1rem; border-radius: .5rem; }
.notice.error { background: var(--danger-bg); color: var(--danger); }
.notice.success { background: var(--success-bg); color: var(--success); }
.meeting { font-size: 1.125rem; color: var(--navy-900); font-weight: 600; }
.room { font-weight: 700; }
`
