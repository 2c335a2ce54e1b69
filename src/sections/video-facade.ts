import { designToken } from '../config/design-tokens'
import { productVideo, youtubeEmbedUrl } from '../copy/home'
import { escapeHtml } from '../contract/escape-html'

/**
 * The video section's player placeholder, served as the iframe's `srcdoc`: the page holds a
 * real youtube-nocookie frame, but nothing is requested from the video host until the visitor
 * follows the play link, which loads the player in the same frame. Its one <style> block is
 * allowed by a CSP hash that the build computes from FACADE_STYLE. The frame is a document of its
 * own, out of reach of the page's custom properties, so the tokens' values are written in.
 */
const color = {
  text: designToken('--on-dark'),
  glow: designToken('--blue-600'),
  from: designToken('--navy-800'),
  to: designToken('--navy-950'),
  play: designToken('--accent'),
  onPlay: designToken('--on-accent'),
  shadow: designToken('--shadow-strong'),
  focus: designToken('--focus-on-dark'),
}

export const FACADE_STYLE =
  '*{box-sizing:border-box}html,body{margin:0;height:100%}' +
  'a{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:14px;height:100%;' +
  `padding:16px;color:${color.text};font:600 18px/1.3 ${designToken('--font-sans')};` +
  'text-align:center;text-decoration:none;' +
  `background:radial-gradient(circle at 25% 15%,${color.glow} 0,transparent 55%),linear-gradient(160deg,${color.from},${color.to})}` +
  `.play{display:grid;place-items:center;width:84px;height:84px;border-radius:50%;background:${color.play};color:${color.onPlay};` +
  `box-shadow:0 8px 30px ${color.shadow};transition:transform .15s}` +
  `a:hover .play{transform:scale(1.06)}a:focus-visible{outline:3px solid ${color.focus};outline-offset:-8px}` +
  '@media (prefers-reduced-motion:reduce){.play{transition:none}}'

export function videoFacadeDocument(): string {
  const label = escapeHtml(productVideo.playLabel)
  return (
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(productVideo.frameTitle)}</title>` +
    `<style>${FACADE_STYLE}</style></head><body>` +
    `<a href="${escapeHtml(youtubeEmbedUrl(true))}">` +
    '<span class="play" aria-hidden="true"><svg width="36" height="36" viewBox="0 0 24 24"><path d="M8 5.5v13l11-6.5z" fill="currentColor"/></svg></span>' +
    `<span>${label}</span></a></body></html>`
  )
}
