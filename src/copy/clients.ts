/**
 * The clients section (content/inicio.yml). Apart from the other home fields, which the
 * islands' scripts import: its logos are only ever in the HTML.
 */
export { default as clients } from '../../content/inicio.yml?field=clients'
