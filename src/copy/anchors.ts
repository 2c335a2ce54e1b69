/** Fragment ids of the home page sections: links, tests and the sections themselves use these. */
export const anchors = {
  why: 'porque-gaspre',
  clients: 'nuestros-clientes',
  demo: 'solicitar-demo-gratis',
  demoHeading: 'demo-titulo',
  video: 'video',
  main: 'contenido',
} as const
