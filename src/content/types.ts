/** Shapes of the copy modules. Components render these; they never hold copy themselves. */

export type Link = { readonly label: string; readonly href: string }

export type ExternalLink = Link & {
  readonly network?: 'linkedin' | 'facebook' | 'whatsapp' | 'email'
}

/** A paragraph, or a bulleted list introduced by an optional lead sentence. */
export type LegalBlock =
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'list'; readonly lead?: string; readonly items: readonly string[] }

export type LegalSection = {
  /** Fragment id, unique within the page, kebab-case ASCII (e.g. 'responsable'). */
  readonly id: string
  readonly title: string
  readonly blocks: readonly LegalBlock[]
}

export type TermsContent = {
  readonly title: string
  readonly metaDescription: string
  readonly lastUpdated: { readonly iso: string; readonly label: string }
  readonly intro: readonly string[]
  readonly tocTitle: string
  readonly termsSections: readonly LegalSection[]
  readonly privacyTitle: string
  readonly privacyIntro: string
  readonly privacySections: readonly LegalSection[]
}
