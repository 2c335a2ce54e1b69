/**
 * The request written out for WhatsApp or e-mail (content/formulario.yml). A module of its
 * own, so that only the chunk loaded when a send fails carries it.
 */
export { default as fallbackMessage } from '../../content/formulario.yml?field=fallbackMessage'
