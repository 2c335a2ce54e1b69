import content from '../../content/formulario.yml?field=demoForm'
import { fillIn } from './fill-in'

/** Copy of the demo request form, its validation messages and its alerts (content/formulario.yml). */
export const demoForm = {
  ...content,
  errors: {
    ...content.errors,
    required: { ...content.errors.required, message: '' },
    tooLong: (max: number) => fillIn(content.errors.tooLong, { max }),
  },
}
