import { describe, expect, it } from 'vitest'
import { emptyValues, isValidPhone, trimValues, validate, validateField } from './demo-request'
import { MAX_LENGTH, newContactNumber } from '../contract/demo-request'

const complete = {
  user_name: 'Ana López',
  user_email: 'ana@grupo.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Altamar',
  message: '',
}

describe('demo request validation', () => {
  it('accepts a complete request without comments', () => {
    expect(validate(complete)).toEqual({})
  })

  it('requires the four fields and leaves comments optional', () => {
    expect(Object.keys(validate(emptyValues())).sort()).toEqual([
      'user_email',
      'user_group',
      'user_name',
      'user_phone',
    ])
  })

  it('treats a name of spaces as no name', () => {
    expect(validateField('user_name', '    ')).toBe('Escribe tu nombre completo.')
  })

  it('rejects an address the sales team could not answer', () => {
    expect(validateField('user_email', 'ana@grupo')).toMatch(/nombre@empresa\.com/)
    expect(validateField('user_email', 'ana grupo.mx')).toBeDefined()
  })

  it.each([
    '55 1234 5678',
    '+52 1 55 1234 5678',
    '+52-55-1234-5678',
    '(55) 1234-5678',
    '612 34 56 78',
    '+34 612 345 678',
    '+57 300 123 4567',
    '+506 8888 8888',
    '+54 9 11 2345-6789',
    '+56 9 8765 4321',
  ])('accepts the phone number %s', (phone) => {
    expect(isValidPhone(phone)).toBe(true)
  })

  it.each(['123456', 'llámame', '+52 55 1234 5678 ext 9', '++52 5512345678', '1234567890123456'])(
    'rejects the phone number %s',
    (phone) => {
      expect(isValidPhone(phone)).toBe(false)
    },
  )

  it('caps every field at its maximum length', () => {
    expect(validateField('message', 'a'.repeat(MAX_LENGTH.message + 1))).toMatch(/2000 caracteres/)
    expect(validateField('message', 'a'.repeat(MAX_LENGTH.message))).toBeUndefined()
  })

  it('trims every value before it is sent', () => {
    expect(trimValues({ ...complete, user_name: '  Ana López ', message: ' hola\n' })).toEqual({
      ...complete,
      message: 'hola',
    })
  })

  it('makes contact numbers of at most five digits', () => {
    expect(newContactNumber(() => 0)).toBe('0')
    expect(newContactNumber(() => 0.999999)).toBe('99999')
    for (let i = 0; i < 100; i++) expect(newContactNumber()).toMatch(/^\d{1,5}$/)
  })
})
