import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { demoForm } from '../../copy/demo-form'
import { emptyValues, type DemoRequestValues } from '../../rules/demo-request'
import { FIELD_NAMES } from '../../contract/demo-request'
import { useFieldValidation } from './use-field-validation'

const { errors: messages } = demoForm
const complete: DemoRequestValues = {
  user_name: 'Ana López',
  user_email: 'ana@grupo.mx',
  user_phone: '55 1234 5678',
  user_group: 'Grupo Altamar',
  message: '',
}

let form: HTMLFormElement
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement

beforeEach(() => {
  form = document.createElement('form')
  for (const name of FIELD_NAMES) {
    const input = document.createElement('input')
    input.name = name
    form.append(input)
  }
  document.body.append(form)
})

afterEach(() => {
  vi.useRealTimers()
  document.body.replaceChildren()
})

/** Timers and frames under the test's control. */
const holdFrames = () =>
  vi.useFakeTimers({
    toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'],
  })
/** The browser paints a frame: requestAnimationFrame callbacks, then the task queued from them. */
function paintFrame() {
  vi.advanceTimersToNextFrame()
  vi.runOnlyPendingTimers()
}

function renderValidation() {
  const formRef = { current: form } // as stable as the component's useRef
  return renderHook(() => useFieldValidation(formRef))
}

/** A key in a field: the browser changes its value and fires 'input'. */
function type(name: string, value: string) {
  field(name).value = value
  field(name).dispatchEvent(new Event('input', { bubbles: true }))
}
/** The visitor leaves a field they changed: the browser fires 'change'. */
const leave = (name: string) => field(name).dispatchEvent(new Event('change', { bubbles: true }))

/** The visitor types into a field and leaves it; its check, a moment later, has run. */
const typeAndLeave = (name: string, value: string) =>
  act(() => {
    type(name, value)
    leave(name)
    vi.runOnlyPendingTimers()
  })

/** What the visitor left in the fields when the browser checks them on submit. */
function fillFields(values: Partial<DemoRequestValues>) {
  for (const [name, value] of Object.entries(values)) field(name).value = value
}

/** The browser's e-mail check refuses "(" before the "@"; our rule lets it through. */
function typedAnAddressOnlyTheBrowserRefuses() {
  holdFrames()
  const typed = { ...complete, user_email: 'ana(x)@grupo.mx' }
  const { result } = renderValidation()
  field('user_email').type = 'email'
  fillFields(typed)
  return { typed, result }
}

describe('useFieldValidation', () => {
  it("puts our rules into the browser's own constraint validation, and keeps them there", () => {
    fillFields({ ...complete, user_name: '   ' })
    renderValidation()
    expect(field('user_name').validationMessage).toBe(messages.required.user_name)
    expect(field('user_email').validity.valid).toBe(true)
    act(() => {
      type('user_name', 'Ana')
      type('user_email', 'ana@grupo')
    })
    expect(field('user_name').validity.valid).toBe(true)
    expect(field('user_email').validationMessage).toBe(messages.email)
  })

  it('typing shows nothing and renders nothing while no message is shown', () => {
    let renders = 0
    const formRef = { current: form }
    const { result } = renderHook(() => {
      renders += 1
      return useFieldValidation(formRef)
    })
    const before = renders
    act(() => {
      for (const value of ['a', 'an', 'ana', 'ana@', 'ana@g']) type('user_email', value)
    })
    expect(renders - before).toBe(0)
    expect(result.current.errors).toEqual({})
  })

  it('leaving a changed field shows its message, and leaving it right takes it away', () => {
    vi.useFakeTimers()
    const { result } = renderValidation()
    typeAndLeave('user_phone', '12')
    expect(result.current.errors).toEqual({ user_phone: messages.phone })
    // The summary belongs to a submit.
    expect(result.current.showSummary).toBe(false)
    typeAndLeave('user_name', 'Ana López')
    expect(result.current.errors).toEqual({ user_phone: messages.phone })
    typeAndLeave('user_phone', '55 1234 5678')
    expect(result.current.errors.user_phone).toBeUndefined()
  })

  it("a left field's message waits for the tap that moved focus to end, so nothing moves under it", () => {
    vi.useFakeTimers()
    const { result } = renderValidation()
    const press = (type: string) =>
      document.body.dispatchEvent(new Event(type, { bubbles: true, composed: true }))
    act(() => {
      type('user_email', 'ana@grupo')
      press('pointerdown')
      leave('user_email')
      vi.runOnlyPendingTimers()
    })
    expect(result.current.errors).toEqual({})
    act(() => press('pointerup'))
    // The click of that tap comes in the same task as its pointerup.
    expect(result.current.errors).toEqual({})
    act(() => void vi.runOnlyPendingTimers())
    expect(result.current.errors).toEqual({ user_email: messages.email })
  })

  it('a request sent (and emptied) before a left field is judged leaves no message behind', () => {
    vi.useFakeTimers()
    const { result } = renderValidation()
    act(() => {
      type('user_group', 'Grupo Altamar')
      leave('user_group')
    })
    // The send succeeded at once (a bot's, say): the fields are emptied and the messages cleared.
    field('user_group').value = ''
    act(() => result.current.clearErrors(form))
    act(() => void vi.runOnlyPendingTimers())
    expect(result.current.errors).toEqual({})
  })

  it("answers the browser's invalid event with our messages and the summary, not its bubble", () => {
    holdFrames()
    const { result } = renderValidation()
    fillFields({ ...complete, user_name: '', user_phone: '12' })
    const invalid = new Event('invalid', { cancelable: true })
    act(() => void field('user_name').dispatchEvent(invalid))
    expect(invalid.defaultPrevented).toBe(true)
    // The frame that answers the tap marks the wrong fields only: nothing moves.
    expect(field('user_name')).toHaveAttribute('aria-invalid', 'true')
    expect(field('user_phone')).toHaveAttribute('aria-invalid', 'true')
    expect(field('user_email')).not.toHaveAttribute('aria-invalid')
    expect(result.current.errors).toEqual({})
    expect(result.current.showSummary).toBe(false)
    // The messages and the summary in the next.
    act(paintFrame)
    expect(result.current.errors).toEqual({
      user_name: messages.required.user_name,
      user_phone: messages.phone,
    })
    expect(result.current.showSummary).toBe(true)
  })

  it("renders the messages once per submit, not once per wrong field's invalid event", () => {
    holdFrames()
    const typed = { ...complete, user_name: '', user_email: 'ana', user_group: '' }
    let renders = 0
    const formRef = { current: form } // as stable as the component's useRef
    renderHook(() => {
      renders += 1
      return useFieldValidation(formRef)
    })
    fillFields(typed)
    const before = renders
    // The browser checks every field in one go, in the task of the visitor's tap; React renders
    // after each event, as it does for 'invalid' in a browser.
    for (const name of ['user_name', 'user_email', 'user_group'])
      act(() => void field(name).dispatchEvent(new Event('invalid', { cancelable: true })))
    expect(renders - before).toBe(0)
    act(paintFrame)
    expect(renders - before).toBe(1)
  })

  it("moves focus to the first wrong field once the submit's messages have painted", () => {
    holdFrames()
    const typed = { ...complete, user_email: 'ana', user_group: '' }
    const { result } = renderValidation()
    fillFields(typed)
    for (const name of ['user_email', 'user_group'])
      act(() => void field(name).dispatchEvent(new Event('invalid', { cancelable: true })))
    expect(field('user_email')).not.toHaveFocus()
    act(paintFrame)
    expect(result.current.errors).toHaveProperty('user_email')
    expect(field('user_email')).not.toHaveFocus()
    act(() => vi.advanceTimersToNextFrame())
    expect(field('user_email')).not.toHaveFocus()
    act(() => vi.runOnlyPendingTimers())
    expect(field('user_email')).toHaveFocus()
  })

  it('names a value the browser refuses and our rules accept, instead of refusing without a word', () => {
    const { result } = typedAnAddressOnlyTheBrowserRefuses()
    expect(field('user_email').validity.valid).toBe(false)
    act(() => void field('user_email').dispatchEvent(new Event('invalid', { cancelable: true })))
    act(paintFrame)
    expect(result.current.errors).toEqual({ user_email: messages.email })
    expect(result.current.showSummary).toBe(true)
  })

  it('refuses a request with a wrong field, showing why and focusing it once that has painted', () => {
    holdFrames()
    const { result } = renderValidation()
    let accepted: boolean | undefined
    act(() => {
      accepted = result.current.checkRequest(form, { ...complete, user_email: 'ana@grupo' })
    })
    expect(accepted).toBe(false)
    expect(field('user_email')).toHaveAttribute('aria-invalid', 'true')
    act(paintFrame)
    expect(result.current.errors).toEqual({ user_email: messages.email })
    expect(result.current.showSummary).toBe(true)
    expect(field('user_email')).not.toHaveFocus()
    act(paintFrame)
    expect(field('user_email')).toHaveFocus()
  })

  it('refuses, before sending, an address the browser refuses and our rule accepts', () => {
    const { typed, result } = typedAnAddressOnlyTheBrowserRefuses()
    let accepted: boolean | undefined
    act(() => {
      accepted = result.current.checkRequest(form, typed)
    })
    expect(accepted).toBe(false)
    act(paintFrame)
    expect(result.current.errors).toEqual({ user_email: messages.email })
  })

  it('accepts a complete request and takes the summary away', () => {
    const { result } = renderValidation()
    act(() => void result.current.checkRequest(form, emptyValues()))
    let accepted: boolean | undefined
    act(() => {
      accepted = result.current.checkRequest(form, complete)
    })
    expect(accepted).toBe(true)
    expect(result.current.errors).toEqual({})
    expect(result.current.showSummary).toBe(false)
  })

  it('a message already shown follows the correction; typing elsewhere raises none', () => {
    holdFrames()
    const { result } = renderValidation()
    act(() => void result.current.checkRequest(form, { ...complete, user_phone: '12' }))
    act(paintFrame)
    act(() => type('user_phone', '123'))
    expect(result.current.errors.user_phone).toBe(messages.phone)
    act(() => type('user_email', 'ana'))
    expect(result.current.errors).not.toHaveProperty('user_email')
    act(() => type('user_phone', '55 1234 5678'))
    expect(result.current.errors.user_phone).toBeUndefined()
    // Broken again while the visitor is still on it: the message comes back.
    act(() => type('user_phone', '55'))
    expect(result.current.errors.user_phone).toBe(messages.phone)
    act(() => result.current.clearErrors(form))
    expect(result.current.errors).toEqual({})
  })

  it('the bot trap and other controls are not judged', () => {
    const trap = document.createElement('input')
    trap.name = 'website'
    form.append(trap)
    const { result } = renderValidation()
    act(() => {
      trap.value = 'x'
      trap.dispatchEvent(new Event('input', { bubbles: true }))
      trap.dispatchEvent(new Event('change', { bubbles: true }))
    })
    expect(result.current.errors).toEqual({})
    expect(trap.validity.valid).toBe(true)
  })
})
