import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { emptyValues } from '../../rules/demo-request'
import { FIELD_NAMES } from '../../contract/demo-request'
import { DRAFT_KEY } from '../../rules/draft'
import { useRequestValues } from './use-request-values'

afterEach(() => {
  vi.restoreAllMocks()
  document.body.replaceChildren()
})

const saveDraftOf = (fields: Record<string, string>) =>
  localStorage.setItem(DRAFT_KEY, JSON.stringify({ ...fields, savedAt: Date.now() }))

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

describe('useRequestValues', () => {
  it('the first empty render never overwrites a saved draft', () => {
    saveDraftOf({ user_name: 'Ana' })
    const saved = localStorage.getItem(DRAFT_KEY)
    const { result } = renderHook(() => useRequestValues())
    expect(result.current.values).toEqual(emptyValues())
    expect(localStorage.getItem(DRAFT_KEY)).toBe(saved)
  })

  it('keeps what was typed before hydration; a saved draft fills only the fields left empty', () => {
    saveDraftOf({ user_name: 'Ana del borrador', message: 'Hola' })
    const { result } = renderHook(() => useRequestValues())
    let adopted: ReturnType<typeof result.current.adoptOnHydration> | undefined
    act(() => {
      adopted = result.current.adoptOnHydration(prerenderedForm({ user_name: 'Ana López' }))
    })
    const expected = { ...emptyValues(), user_name: 'Ana López', message: 'Hola' }
    expect(result.current.values).toEqual(expected)
    expect(adopted).toEqual({
      values: expected,
      contactNumber: result.current.contactNumber,
      typedBeforeHydration: true,
    })
    expect(result.current.contactNumber).toMatch(/^\d{1,5}$/)
    expect(JSON.parse(localStorage.getItem(DRAFT_KEY)!)).toMatchObject(expected)
  })

  it('a draft alone is not something the visitor typed', () => {
    saveDraftOf({ user_group: 'Grupo Altamar' })
    const { result } = renderHook(() => useRequestValues())
    let typed: boolean | undefined
    act(() => {
      typed = result.current.adoptOnHydration(prerenderedForm()).typedBeforeHydration
    })
    expect(typed).toBe(false)
    expect(result.current.values.user_group).toBe('Grupo Altamar')
  })

  it('saves each change as the draft', () => {
    const { result } = renderHook(() => useRequestValues())
    act(() => result.current.setValue('user_email', 'ana@grupo.mx'))
    expect(result.current.values.user_email).toBe('ana@grupo.mx')
    expect(JSON.parse(localStorage.getItem(DRAFT_KEY)!)).toMatchObject({
      user_email: 'ana@grupo.mx',
    })
  })

  it('starting over forgets the request and its draft, and gives the next one a new number', () => {
    vi.spyOn(Math, 'random').mockReturnValueOnce(0.12345).mockReturnValueOnce(0.6789)
    const { result } = renderHook(() => useRequestValues())
    act(() => {
      result.current.adoptOnHydration(prerenderedForm({ user_name: 'Ana' }))
    })
    expect(result.current.contactNumber).toBe('12345')
    act(() => result.current.startOver())
    expect(result.current.values).toEqual(emptyValues())
    expect(result.current.contactNumber).toBe('67890')
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
  })
})
