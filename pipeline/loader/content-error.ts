/**
 * A content file that the site cannot be built from, told the way its editor reads it:
 * `content/inicio.yml, línea 14, hero.title: «Título principal» tiene 93 caracteres y caben 80`.
 */
export class ContentError extends Error {
  constructor(
    /** As the editor knows it, e.g. content/inicio.yml. */
    readonly file: string,
    readonly line: number | undefined,
    /** Where in the file, e.g. clients.logos[3].logo; empty for the file as a whole. */
    readonly field: string,
    readonly reason: string,
    /** The file's other problems, when it has several. */
    readonly more: readonly ContentError[] = [],
  ) {
    super(
      [file, line === undefined ? '' : `línea ${line}`, field].filter(Boolean).join(', ') +
        `: ${reason}`,
    )
    this.name = 'ContentError'
  }
}

/** `clients.logos[3].logo` for the path ['clients', 'logos', 3, 'logo']. */
export const fieldPath = (path: readonly PropertyKey[]) =>
  path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`,
    )
    .join('')
