import { entryProblems, fieldProblem, labelAt, maxLength } from './checks.ts'

/**
 * What the content editor adds to Decap CMS before it starts: its fields check what the build
 * checks (checks.ts), each problem told next to its field in the build's words, with a
 * live count of characters, and an entry the build would refuse is never written.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- Decap's widgets are untyped React classes */
type Props = Record<string, any>
type Element = { type: unknown; props: Props }
type ControlClass = new (...args: any[]) => {
  props: Props
  render(): Element
  componentDidUpdate?(previous: Props): void
}
type Widget = { control: ControlClass; preview: unknown; schema?: object }
export type Decap = {
  getWidget(name: string): Widget | undefined
  registerWidget(name: string, control: unknown, preview: unknown, schema?: object): void
  registerEventListener(listener: {
    name: string
    handler: (data: { entry: { get(key: string): unknown } }) => unknown
  }): void
  getLocale(locale: string): Record<string, unknown> | undefined
  registerLocale(locale: string, phrases: Record<string, unknown>): void
  registerPreviewStyle(style: string, options: { raw: boolean }): void
  registerPreviewTemplate(name: string, template: (props: Props) => Element): void
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** React's createElement, from Decap's own React (its bundle puts it on window). */
const h = (type: unknown, props: Props | null, ...children: unknown[]): Element =>
  (globalThis as unknown as { h: (...args: unknown[]) => Element }).h(type, props, ...children)

/**
 * An error as Decap's fields show theirs. Told as a missing field: Decap then also says, in a
 * notice, that the publish was stopped (ui.toast.missingRequiredField).
 */
const fieldError = (message: string) => ({ error: { type: 'PRESENCE', message } })

const COUNTER_STYLE = { margin: '6px 0 0', fontSize: '13px', color: '#5f6b7a' }
const OVER_STYLE = { ...COUNTER_STYLE, color: '#b3261e', fontWeight: 600 }

/** «42 de 80 caracteres», or how many are left over. */
function counter(length: number, max: number) {
  const over = length > max
  return h(
    'p',
    { style: over ? OVER_STYLE : COUNTER_STYLE, 'data-counter': '', 'aria-live': 'polite' },
    over
      ? `${length} de ${max} caracteres: sobran ${length - max}`
      : `${length} de ${max} caracteres`,
  )
}

/** A text or picture field that checks its value by the schema, as it changes and on leaving it. */
function checkedControl(Base: ControlClass, { count }: { count: boolean }): ControlClass {
  return class Checked extends Base {
    isValid() {
      const check = this.props.field?.get('check') as string | undefined
      const message = check ? fieldProblem(check, this.props.value) : undefined
      return message ? fieldError(message) : true
    }

    override componentDidUpdate(previous: Props) {
      super.componentDidUpdate?.(previous)
      if (previous.value !== this.props.value) this.props.validate?.()
    }

    override render() {
      const element = super.render()
      const check = this.props.field?.get('check') as string | undefined
      if (!count || !check || !element || typeof element !== 'object') return element
      const control = h(element.type, {
        ...element.props,
        onBlur: (event: unknown) => {
          element.props.onBlur?.(event)
          this.props.validate?.()
        },
      })
      const max = maxLength(check)
      if (max === undefined) return control
      return h('div', null, control, counter(String(this.props.value ?? '').length, max))
    }
  }
}

/** Decap's stand-in while a picture loads: an empty SVG at this path. */
const LOADING_PICTURE = 'empty.svg'

/**
 * A picture field that shows its picture. Decap's own draws the empty stand-in it is given
 * while the file loads and, as it asks again only when its value or its `getAsset` changes,
 * keeps it: every picture in the form stayed blank. This one hands its picture a new
 * `getAsset` until the file has come, so the picture asks again.
 */
function pictureControl(Base: ControlClass): ControlClass {
  const Checked = checkedControl(Base, { count: false })
  return class Picture extends Checked {
    waiting: ReturnType<typeof setTimeout> | undefined
    getAsset = (...args: unknown[]) => this.props.getAsset(...args)

    componentDidMount() {
      ;(Checked.prototype as { componentDidMount?: () => void }).componentDidMount?.call(this)
      this.redrawWhileLoading()
    }

    override componentDidUpdate(previous: Props) {
      super.componentDidUpdate?.(previous)
      if (previous.value !== this.props.value) this.redrawWhileLoading()
    }

    componentWillUnmount() {
      clearTimeout(this.waiting)
    }

    override render() {
      const props = this.props
      this.props = { ...props, getAsset: this.getAsset }
      try {
        return super.render()
      } finally {
        this.props = props
      }
    }

    redrawWhileLoading() {
      clearTimeout(this.waiting)
      const { value, getAsset, field } = this.props
      if (typeof value !== 'string' || !value || typeof getAsset !== 'function') return
      if (getAsset(value, field)?.path !== LOADING_PICTURE) return
      this.waiting = setTimeout(() => {
        this.getAsset = (...args: unknown[]) => this.props.getAsset(...args)
        ;(this as unknown as { forceUpdate(): void }).forceUpdate()
        this.redrawWhileLoading()
      }, 150)
    }
  }
}

/** A field of Decap's configuration, as its Immutable Map. */
type FieldMap = {
  get(key: string): unknown
  set(key: string, value: unknown): FieldMap
}
type FieldList = { map(change: (field: FieldMap) => FieldMap): FieldList }

/**
 * `field` with each check under `from` (`inicio.yml:heroBoard.columns.*`) moved to `to`
 * (`…columns.1`), in it and in the fields it holds.
 */
function checkedAt(field: FieldMap, from: string, to: string): FieldMap {
  let moved = field
  const check = field.get('check')
  if (typeof check === 'string' && (check === from || check.startsWith(`${from}.`)))
    moved = moved.set('check', to + check.slice(from.length))
  const single = field.get('field') as FieldMap | undefined
  if (single) {
    let item = checkedAt(single, from, to)
    // An item of a list whose items differ is called what the schema calls it («Columna 1»).
    const label = labelAt(String(item.get('check')))
    if (label) item = item.set('label', label)
    moved = moved.set('field', item)
  }
  const fields = field.get('fields') as FieldList | undefined
  if (fields)
    moved = moved.set(
      'fields',
      fields.map((child) => checkedAt(child, from, to)),
    )
  return moved
}

/** Each list's fields as one of its items sees them, by item: made once, kept while it lasts. */
const itemFields = new WeakMap<object, Map<number, FieldMap>>()

/**
 * The list's field as its item at `index` sees it: every check under the list names that item
 * (`…columns.1`), so an item is counted and checked by its own rule where a list's items
 * differ («Columnas»: 12 characters for the first, 9 for the others).
 */
function itemField(list: FieldMap, index: number): FieldMap {
  const check = list.get('check')
  // Only a list of plain values: a list of groups keeps its fields as they are, since Decap
  // resolves a picture's folder by the very field it was given (a copy made a new logo's
  // path wrong on publish); their items share every rule anyway.
  if (typeof check !== 'string' || !list.get('field')) return list
  let byIndex = itemFields.get(list)
  if (!byIndex) itemFields.set(list, (byIndex = new Map()))
  let field = byIndex.get(index)
  if (!field) {
    field = checkedAt(list, `${check}.*`, `${check}.${index}`)
    byIndex.set(index, field)
  }
  return field
}

/**
 * A list that tells its size in the build's words instead of Decap's, and whose items are each
 * checked by their own part of the schema.
 */
function checkedList(Base: ControlClass): ControlClass {
  return class CheckedList extends Base {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's constructor
    constructor(...args: any[]) {
      super(...args)
      const self = this as unknown as {
        props: Props
        renderItem?: (item: unknown, index: number) => unknown
      }
      const renderItem = self.renderItem
      if (typeof renderItem !== 'function') return
      self.renderItem = (item, index) => {
        const props = self.props
        self.props = { ...props, field: itemField(props.field as FieldMap, index) }
        try {
          return renderItem(item, index)
        } finally {
          self.props = props
        }
      }
    }

    /** A folded item with nothing yet in the field it is known by: said in Spanish. */
    objectLabel(item: unknown) {
      const label = (
        Base.prototype as { objectLabel?: (item: unknown) => unknown }
      ).objectLabel?.call(this, item)
      if (typeof label !== 'string' || !/^No \w+$/.test(label)) return label
      const summary = /\{\{fields\.(\w+)\}\}/.exec(String(this.props.field?.get('summary')))?.[1]
      const fields = this.props.field?.get('fields') as
        { find(test: (field: FieldMap) => boolean): FieldMap | undefined } | undefined
      const named = fields?.find((field) => field.get('name') === (summary ?? label.slice(3)))
      return `Sin «${String(named?.get('label') ?? label.slice(3))}» todavía`
    }

    validateSize = () => {
      const check = this.props.field?.get('check') as string | undefined
      const message = check
        ? fieldProblem(check, this.props.value ?? [], (issue) => issue.path.length === 0)
        : undefined
      return message ? [fieldError(message).error] : []
    }
  }
}

/** The files last read that the editor cannot show, with what to fix, by name (inicio.yml). */
const unreadable = new Map<string, string>()

const BANNER_ID = 'archivo-con-problema'

/** Tells, over the form, why the open entry's file cannot be edited, while it cannot. */
function showUnreadable() {
  if (typeof document === 'undefined') return
  const open = /#\/collections\/[^/]+\/entries\/([^/?]+)/.exec(location.hash)?.[1]
  const problem = open === undefined ? undefined : unreadable.get(`${open}.yml`)
  let banner = document.getElementById(BANNER_ID)
  if (problem === undefined) {
    banner?.remove()
    return
  }
  if (!banner) {
    banner = document.createElement('div')
    banner.id = BANNER_ID
    banner.setAttribute('role', 'alert')
    banner.style.cssText =
      'position:fixed;z-index:1000;top:76px;left:50%;transform:translateX(-50%);width:min(760px,calc(100% - 32px));box-sizing:border-box;padding:16px 20px;border:2px solid #b3261e;border-radius:8px;background:#fdecea;color:#3b0d0a;font:15px/1.5 system-ui,sans-serif;box-shadow:0 4px 16px rgb(0 0 0 / 15%)'
    document.body.append(banner)
  }
  const title = document.createElement('strong')
  title.textContent = `No puedes editar este archivo aquí hasta que lo corrijas.`
  const detail = document.createElement('p')
  detail.style.margin = '8px 0'
  detail.textContent = problem
  const help = document.createElement('p')
  help.style.margin = '0'
  help.textContent =
    'Ábrelo en un editor de texto (o en la web de GitHub), corrige esa línea y vuelve a abrir esta página. Mientras tanto, no se publica nada de él.'
  banner.replaceChildren(title, detail, help)
}

/** What the editor last read of a file: a problem that keeps it from being edited, or none. */
export function noteRead(name: string, problem: string | undefined): void {
  if (problem === undefined) unreadable.delete(name)
  else unreadable.set(name, problem)
  showUnreadable()
}

/**
 * Decap shows a field's errors in capitals, small, right-aligned beside its name: fit for its
 * own two-word errors, not for the build's sentences. They show as written, on a line of their
 * own above the field's name. (Decap's class names carry its components' names; an element's
 * name makes these rules outweigh its own, which come later.)
 */
const ERROR_STYLES = `
div[class*='-ControlTopbar'] { flex-wrap: wrap; }
ul[class*='-ControlErrorsList'] {
  flex: 1 1 100%;
  order: -1;
  padding: 0 0 6px;
  font-size: 14px;
  line-height: 1.45;
  text-align: left;
  text-transform: none;
}
`

/** Puts the checks in place: call before CMS.init(). */
export function addChecks(cms: Decap): void {
  if (typeof document !== 'undefined') {
    const style = document.createElement('style')
    style.dataset.gaspre = 'errores'
    style.textContent = ERROR_STYLES
    document.head.append(style)
  }
  for (const [name, make] of [
    ['string', (base: ControlClass) => checkedControl(base, { count: true })],
    ['text', (base: ControlClass) => checkedControl(base, { count: true })],
    ['image', pictureControl],
    ['list', checkedList],
  ] as const) {
    const widget = cms.getWidget(name)
    if (widget) cms.registerWidget(name, make(widget.control), widget.preview, widget.schema)
  }
  if (typeof window !== 'undefined') window.addEventListener('hashchange', showUnreadable)
  // Whatever a field's own check missed, the entry as a whole is checked before it is written.
  cms.registerEventListener({
    name: 'preSave',
    handler: ({ entry }) => {
      const path = String(entry.get('path'))
      const problem = unreadable.get(path.replace(/^content\//, ''))
      if (problem !== undefined)
        throw new Error(`${problem}. Corrige el archivo antes de publicar.`)
      const problems = entryProblems(path, entry.get('data'))
      if (problems.length > 0) throw new Error(problems.join('\n'))
      return undefined
    },
  })
}

type Preview = {
  previewEntries: readonly string[]
  previewHtml(
    name: string,
    draft: Record<string, never>,
    picture: (value: string, where: readonly (string | number)[]) => string,
    published: Record<string, never>,
  ): { html: string; problem?: string }
  previewStyles(): { css: string; raw: boolean }[]
}

const PROBLEM_STYLE = {
  margin: '0',
  padding: '12px 16px',
  borderBottom: '2px solid #b3261e',
  background: '#fdecea',
  color: '#3b0d0a',
  font: '15px/1.5 system-ui, sans-serif',
}

/**
 * Where the preview finds a picture the draft names that the page does not have yet: one just
 * uploaded, from the entry's new files; another of content/imagenes/, from the development
 * server (npm run cms). Built for a Git host, that one shows empty until it is published.
 * (Decap's getAsset is not asked: asked here, for a file not yet in the repository, it made a
 * picture of its own that the next publish tried to write under a wrong path.)
 */
function pictureUrl(entry: { get(key: string): unknown }, value: string): string {
  const path = value.replace(/^\/?(content\/)?(imagenes\/)?/, '')
  type Files = { find(test: (file: FieldMap) => boolean): FieldMap | undefined } | undefined
  const uploaded = (entry.get('mediaFiles') as Files)?.find((file) =>
    String(file.get('path')).endsWith(`/${path}`),
  )
  const url = uploaded?.get('url') ?? uploaded?.get('displayURL')
  if (typeof url === 'string') return url
  return import.meta.env.DEV ? `/content/imagenes/${path}` : ''
}

/**
 * Each entry's preview: its page as the site renders it, with what is typed. What the build
 * would refuse in a legal text shows over it, with the page as published below.
 */
export function addPreview(
  cms: Decap,
  { previewEntries, previewHtml, previewStyles }: Preview,
  published: (name: string) => unknown,
): void {
  for (const { css, raw } of previewStyles()) cms.registerPreviewStyle(css, { raw })
  for (const name of previewEntries)
    cms.registerPreviewTemplate(name, (props) => {
      const data = props.entry.getIn(['data']) as { toJS(): Record<string, never> } | undefined
      const { html, problem } = previewHtml(
        name,
        data?.toJS() ?? {},
        (value) => pictureUrl(props.entry, value),
        (published(name) ?? {}) as Record<string, never>,
      )
      return h(
        'div',
        null,
        h(
          'div',
          { role: 'group', 'aria-label': 'Ancho de la vista previa', style: WIDTHS_STYLE },
          ...Object.entries(PREVIEW_WIDTHS).map(([label, width]) =>
            h(
              'button',
              { type: 'button', style: WIDTH_BUTTON_STYLE, onClick: showAt(width) },
              label,
            ),
          ),
        ),
        problem === undefined
          ? null
          : h(
              'p',
              { role: 'alert', style: PROBLEM_STYLE },
              problem.startsWith('«')
                ? `Así no se puede publicar, y la vista previa muestra el texto publicado. ${problem}`
                : problem,
            ),
        h('div', { dangerouslySetInnerHTML: { __html: html } }),
      )
    })
}

/** The widths the preview shows the page at: a phone's, and a desktop's scaled to the pane. */
const PREVIEW_WIDTHS = { 'Teléfono (390 px)': 390, 'Escritorio (1280 px)': 1280 }
const WIDTHS_STYLE = {
  position: 'sticky',
  top: 0,
  zIndex: 10,
  display: 'flex',
  gap: '8px',
  padding: '8px',
  background: '#eef1f6',
  font: '14px system-ui, sans-serif',
}
const WIDTH_BUTTON_STYLE = {
  padding: '6px 12px',
  border: '1px solid #9aa5b5',
  borderRadius: '6px',
  background: '#fff',
  color: '#0b1f3a',
  cursor: 'pointer',
}

/**
 * Lays the preview's frame out at `width`, so the site's own breakpoints apply: narrower than
 * the pane, centred; wider, scaled down to fit it.
 */
const showAt = (width: number) => (event: { currentTarget: { ownerDocument: Document } }) => {
  const frame = event.currentTarget.ownerDocument.defaultView?.frameElement as HTMLElement | null
  const pane = frame?.parentElement
  if (!frame || !pane) return
  const scale = Math.min(1, pane.clientWidth / width)
  Object.assign(frame.style, {
    width: `${width}px`,
    height: `${pane.clientHeight / scale}px`,
    margin: scale < 1 ? '0' : '0 auto',
    transform: scale < 1 ? `scale(${scale})` : '',
    transformOrigin: 'top left',
    display: 'block',
  })
}
