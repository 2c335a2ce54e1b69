import content from '../../content/formulario.yml?field=demoForm'
import { withFormMessages } from './fill-in'

/** Copy of the demo request form, its validation messages and its alerts (content/formulario.yml). */
export const demoForm = withFormMessages(content)
