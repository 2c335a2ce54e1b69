/**
 * The editor's words where Decap's Spanish falls short: the sentences about checks (the
 * fields' own say what to fix), tú throughout, and every phrase its Spanish lacks, which Decap
 * would otherwise show in English.
 */
type Phrases = { [key: string]: string | Phrases }

const OVERRIDES: Phrases = {
  editor: {
    editorControlPane: {
      widget: {
        // A field's check says what is missing, in the build's words (cms-checks.ts).
        required: '',
      },
    },
  },
  ui: {
    toast: {
      missingRequiredField:
        'No se publicó nada: corrige los campos marcados en rojo; cada uno dice qué hacer.',
      onFailToPersist: 'No se publicó nada: %{details}',
      entrySaved: 'Cambios guardados',
    },
  },
}

function merged(base: Phrases, extra: Phrases): Phrases {
  const result: Phrases = { ...base }
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key]
    result[key] =
      typeof value === 'object' && typeof current === 'object' ? merged(current, value) : value
  }
  return result
}

type Decap = {
  getLocale(locale: string): Record<string, unknown> | undefined
  registerLocale(locale: string, phrases: Record<string, unknown>): void
}

/** Puts the editor's Spanish in place: call before CMS.init(). */
export function addSpanish(cms: Decap): void {
  cms.registerLocale('es', merged((cms.getLocale('es') ?? {}) as Phrases, OVERRIDES))
}

/** What Decap writes in English into the page itself, outside its phrases: names read aloud. */
const ARIA_LABELS: Record<string, string> = {
  Expand: 'Desplegar',
  Collapse: 'Plegar',
  'list field': 'lista',
  'string field': 'texto',
  'text field': 'texto largo',
  'object field': 'grupo de campos',
  'image field': 'imagen',
  'select field': 'opciones',
}
/** Decap's «close» icon, the only content of a list item's remove button. */
const CLOSE_ICON = 'M11.916 9.96'

function translate(root: ParentNode) {
  for (const element of root.querySelectorAll('[aria-label]')) {
    const spanish = ARIA_LABELS[element.getAttribute('aria-label') ?? '']
    if (spanish) element.setAttribute('aria-label', spanish)
  }
  for (const path of root.querySelectorAll(`button svg path[d^="${CLOSE_ICON}"]`)) {
    const button = path.closest('button')
    if (button && !button.hasAttribute('aria-label')) button.setAttribute('aria-label', 'Quitar')
  }
}

/** Keeps the names Decap puts in the page in Spanish, as it renders. */
export function translatePage(document: Document): void {
  translate(document)
  new MutationObserver(() => translate(document.body)).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-label'],
  })
}
