// The copy that the site contract (CONTRACT.md in the shared folder beside the repository,
// ../shared) fixes word for word: an outside acceptance suite checks any build for it. The e2e
// tests take their copy from these modules, so an edit there cannot break them; an edit that
// breaks the contract fails here, in one place. That edit is a content edit (content/, often
// through the editor, whose hint on these fields says that the contract fixes them), so each
// failure names the file and field to put back, and why.
import { describe, expect, it } from 'vitest'
import { demoForm } from './demo-form'
import { carousel, hero, heroActions, pillars, videoDialog, videoSection } from './home'
import { footer, header } from './site'
import { termsPage } from './terms'

/** Why a failure here is not a broken test: the sentence each failure carries. */
const fixedByContract = (field: string) =>
  `${field} is copy the site contract (../shared/CONTRACT.md) fixes, and an outside suite ` +
  'checks every build for it: a content edit (in content/, perhaps through the editor) changed ' +
  'it. Put the contract’s words back, or change the contract first'

const pinned = (field: string, actual: string, expected: string) =>
  expect(actual, fixedByContract(field)).toBe(expected)
const mentions = (field: string, actual: string, expected: RegExp) =>
  expect(actual, fixedByContract(field)).toMatch(expected)

describe('copy fixed by the site contract', () => {
  it('names the headline, the video button and its dialog as the contract does', () => {
    pinned(
      'content/inicio.yml hero.title (Título principal)',
      hero.title,
      'Sistema de inteligencia en precios para estaciones de servicio',
    )
    pinned(
      'content/inicio.yml heroActions.videoCta (Botón del video)',
      heroActions.videoCta,
      'Ver video',
    )
    pinned('content/inicio.yml videoDialog.close (Botón Cerrar)', videoDialog.close, 'Cerrar')
    pinned(
      'content/sitio.yml header.cta.label (Botón de la barra)',
      header.cta.label,
      'Solicitar DEMO',
    )
  })

  it('words the form result alerts and the name label as the contract does', () => {
    const form = (field: string) => `content/formulario.yml ${field}`
    pinned(form('labels.user_name'), demoForm.labels.user_name, 'Nombre completo*')
    pinned(form('alert.successTitle'), demoForm.alert.successTitle, '¡Éxito!')
    pinned(
      form('alert.successText'),
      demoForm.alert.successText,
      'El mensaje se envió correctamente.',
    )
    pinned(form('alert.errorTitle'), demoForm.alert.errorTitle, '¡Error!')
    pinned(
      form('alert.errorPrefix'),
      demoForm.alert.errorPrefix,
      'Hubo un problema al enviar el mensaje: ',
    )
  })

  it('keeps the carousel, pillar, video and footer claims the contract checks', () => {
    mentions(
      'content/inicio.yml carousel.controls.previous',
      carousel.controls.previous,
      /anterior/,
    )
    mentions('content/inicio.yml carousel.controls.next', carousel.controls.next, /siguiente/)
    expect(carousel.slides, fixedByContract('content/inicio.yml carousel.slides')).toHaveLength(4)
    mentions('content/inicio.yml pillars.items[0].title', pillars.items[0]!.title, /tiempo real/)
    mentions('content/inicio.yml pillars.items[1].text', pillars.items[1]!.text, /elasticidad/)
    mentions(
      'content/inicio.yml pillars.items[2]',
      `${pillars.items[2]!.title} ${pillars.items[2]!.text}`,
      /a la medida.*reportes/,
    )
    mentions('content/inicio.yml videoSection.heading', videoSection.heading, /más de 150/)
    mentions(
      'content/sitio.yml footer.legal.label',
      footer.legal.label,
      /privacidad.*Términos de uso.*2025/,
    )
    pinned(
      'content/tyc.yml lastUpdated.label',
      termsPage.lastUpdated.label,
      '23 de septiembre de 2025',
    )
  })
})
