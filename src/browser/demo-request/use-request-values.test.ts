import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { emptyValues } from '../../rules/demo-request'
import { FIELD_NAMES } from '../../contract/demo-request'
import { DRAFT_KEY } from '../../rules/draft'
import { useRequestValues } from './use-request-values'

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
  localStorage.clear()
  document.body.replaceChildren()
})

const saveDraftOf = (fields: Record<string, string>, savedAt = Date.now()) =>
  localStorage.setItem(DRAFT_KEY, JSON.stringify({ ...fields, savedAt }))

/** The prerendered form as the visitor left it before the scripts arrived. */
function prerenderedForm(typed: Record<string, string> = {}) {
  const form = document.createElement('form')
  for (const name of FIELD_NAMES) {
    const field = document.createElement(name === 'message' ? 'textarea' : 'input')
    field.name = name
    field.value = typed[name] ?? ''
    form.append(field)
  }
  document.body.append(form)
  return form
}
const valueOf = (form: HTMLFormElement, name: string) =>
  (form.elements.namedItem(name) as HTMLInputElement).value

function renderValues(form: HTMLFormElement) {
  return renderHook(() => useRequestValues({ current: form }))
}

describe('useRequestValues', () => {
  it('hydrating never overwrites a saved draft', () => {
    saveDraftOf({ user_name: 'Ana' })
    const saved = localStorage.getItem(DRAFT_KEY)
    const { unmount } = renderValues(prerenderedForm())
    window.dispatchEvent(new Event('pagehide'))
    unmount()
    expect(localStorage.getItem(DRAFT_KEY)).toBe(saved)
  })

  it('keeps what was typed before hydration; a saved draft fills only the fields left empty', () => {
    saveDraftOf({ user_name: 'Ana del borrador', message: 'Hola' })
    const form = prerenderedForm({ user_name: 'Ana López' })
    const { result } = renderValues(form)
    let adopted: ReturnType<typeof result.current.adoptOnHydration> | undefined
    act(() => {
      adopted = result.current.adoptOnHydration(form)
    })
    const expected = { ...emptyValues(), user_name: 'Ana López', message: 'Hola' }
    for (const name of FIELD_NAMES) expect(valueOf(form, name)).toBe(expected[name])
    expect(adopted).toEqual({
      values: expected,
      contactNumber: result.current.contactNumber,
      typedBeforeHydration: true,
    })
    expect(result.current.contactNumber).toMatch(/^\d{1,5}$/)
    expect(JSON.parse(localStorage.getItem(DRAFT_KEY)!)).toMatchObject(expected)
  })

  it('a draft alone is not something the visitor typed, and keeps the time of its last edit', () => {
    const savedAt = Date.now() - 60_000
    saveDraftOf({ user_group: 'Grupo Altamar' }, savedAt)
    const form = prerenderedForm()
    const { result } = renderValues(form)
    let typed: boolean | undefined
    act(() => {
      typed = result.current.adoptOnHydration(form).typedBeforeHydration
    })
    expect(typed).toBe(false)
    expect(valueOf(form, 'user_group')).toBe('Grupo Altamar')
    expect(JSON.parse(localStorage.getItem(DRAFT_KEY)!)).toMatchObject({ savedAt })
  })

  it('saves the draft when the visitor pauses, not on every key', () => {
    vi.useFakeTimers()
    const form = prerenderedForm()
    renderValues(form)
    const email = form.elements.namedItem('user_email') as HTMLInputElement
    email.value = 'ana@grupo.mx'
    email.dispatchEvent(new Event('input', { bubbles: true }))
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
    act(() => void vi.runOnlyPendingTimers())
    expect(JSON.parse(localStorage.getItem(DRAFT_KEY)!)).toMatchObject({
      user_email: 'ana@grupo.mx',
    })
  })

  it('saves what is unsaved right away when asked to, before a send', () => {
    const form = prerenderedForm()
    const { result } = renderValues(form)
    const name = form.elements.namedItem('user_name') as HTMLInputElement
    name.value = 'Ana'
    name.dispatchEvent(new Event('input', { bubbles: true }))
    result.current.saveDraftNow()
    expect(JSON.parse(localStorage.getItem(DRAFT_KEY)!)).toMatchObject({ user_name: 'Ana' })
  })

  it('starting over empties the fields, forgets the draft, and gives the next one a new number', () => {
    vi.spyOn(Math, 'random').mockReturnValueOnce(0.12345).mockReturnValueOnce(0.6789)
    const form = prerenderedForm({ user_name: 'Ana' })
    const { result } = renderValues(form)
    act(() => {
      result.current.adoptOnHydration(form)
    })
    expect(result.current.contactNumber).toBe('12345')
    const name = form.elements.namedItem('user_name') as HTMLInputElement
    name.value = 'Ana López'
    name.dispatchEvent(new Event('input', { bubbles: true }))
    act(() => result.current.startOver(form))
    for (const field of FIELD_NAMES) expect(valueOf(form, field)).toBe('')
    expect(result.current.contactNumber).toBe('67890')
    // The edit made before the send is not saved later either.
    window.dispatchEvent(new Event('pagehide'))
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
  })
})
