import { entryProblems, fieldProblem, maxLength } from './cms-checks.ts'

/**
 * What the content editor adds to Decap CMS before it starts: its fields check what the build
 * checks (cms-checks.ts), each problem told next to its field in the build's words, with a
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

/** A list that tells its size in the build's words instead of Decap's. */
function checkedList(Base: ControlClass): ControlClass {
  return class CheckedList extends Base {
    validateSize = () => {
      const check = this.props.field?.get('check') as string | undefined
      const message = check
        ? fieldProblem(check, this.props.value ?? [], (issue) => issue.path.length === 0)
        : undefined
      return message ? [fieldError(message).error] : []
    }
  }
}

/** Puts the checks in place: call before CMS.init(). */
export function addChecks(cms: Decap): void {
  for (const [name, make] of [
    ['string', (base: ControlClass) => checkedControl(base, { count: true })],
    ['text', (base: ControlClass) => checkedControl(base, { count: true })],
    ['image', (base: ControlClass) => checkedControl(base, { count: false })],
    ['list', checkedList],
  ] as const) {
    const widget = cms.getWidget(name)
    if (widget) cms.registerWidget(name, make(widget.control), widget.preview, widget.schema)
  }
  // Whatever a field's own check missed, the entry as a whole is checked before it is written.
  cms.registerEventListener({
    name: 'preSave',
    handler: ({ entry }) => {
      const problems = entryProblems(String(entry.get('path')), entry.get('data'))
      if (problems.length > 0) throw new Error(problems.join('\n'))
      return undefined
    },
  })
}
