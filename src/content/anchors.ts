/** Fragment ids of the home page sections: links, tests and the sections themselves use these. */
export const anchors = {
  why: 'porque-gaspre',
  clients: 'nuestros-clientes',
  demo: 'solicitar-demo-gratis',
  video: 'video',
  main: 'contenido',
} as const
