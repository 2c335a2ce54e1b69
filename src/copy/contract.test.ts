// The copy that /work/shared/CONTRACT.md fixes word for word. The e2e tests take their copy
// from these modules, so an edit there cannot break them; an edit that breaks the contract
// fails here, in one place.
import { describe, expect, it } from 'vitest'
import { demoForm } from './demo-form'
import { carousel, hero, heroActions, pillars, videoDialog, videoSection } from './home'
import { footer, header } from './site'
import { termsPage } from './terms'

describe('copy fixed by the site contract', () => {
  it('names the headline, the video button and its dialog as the contract does', () => {
    expect(hero.title).toBe('Sistema de inteligencia en precios para estaciones de servicio')
    expect(heroActions.videoCta).toBe('Ver video')
    expect(videoDialog.close).toBe('Cerrar')
    expect(header.cta.label).toBe('Solicitar DEMO')
  })

  it('words the form result alerts and the name label as the contract does', () => {
    expect(demoForm.labels.user_name).toBe('Nombre completo*')
    expect(demoForm.alert.successTitle).toBe('¡Éxito!')
    expect(demoForm.alert.successText).toBe('El mensaje se envió correctamente.')
    expect(demoForm.alert.errorTitle).toBe('¡Error!')
    expect(demoForm.alert.errorPrefix).toBe('Hubo un problema al enviar el mensaje: ')
  })

  it('keeps the carousel, pillar, video and footer claims the contract checks', () => {
    expect(carousel.controls.previous).toMatch(/anterior/)
    expect(carousel.controls.next).toMatch(/siguiente/)
    expect(carousel.slides).toHaveLength(4)
    expect(pillars.items[0]!.title).toMatch(/tiempo real/)
    expect(pillars.items[1]!.text).toMatch(/elasticidad/)
    expect(`${pillars.items[2]!.title} ${pillars.items[2]!.text}`).toMatch(/a la medida.*reportes/)
    expect(videoSection.heading).toMatch(/más de 150/)
    expect(footer.legal.label).toMatch(/privacidad.*Términos de uso.*2025/)
    expect(termsPage.lastUpdated.label).toBe('23 de septiembre de 2025')
  })
})
