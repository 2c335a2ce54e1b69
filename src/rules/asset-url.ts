/** URL of an SVG artwork file from a Vite glob of its folder, by file name. */
export function assetUrl(modules: Record<string, string>, name: string): string {
  const url = Object.entries(modules).find(([path]) => path.endsWith(`/${name}.svg`))?.[1]
  if (!url) throw new Error(`Missing artwork: ${name}.svg`)
  return url
}
