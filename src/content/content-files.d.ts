// The modules the content plugin (pipeline/content/plugin.ts) makes of the files in content/,
// typed by the schema they are checked against. A YAML file's fields are imported one by one
// (`inicio.yml?field=hero`): a script then carries, and a build processes, only the fields it
// uses.
/* eslint-disable @typescript-eslint/consistent-type-imports -- an ambient module cannot import */

declare module '*/content/sitio.yml?field=company' {
  const value: import('./schema').SiteContent['company']
  export default value
}

declare module '*/content/sitio.yml?field=contact' {
  const value: import('./schema').SiteContent['contact']
  export default value
}

declare module '*/content/sitio.yml?field=social' {
  const value: import('./schema').SiteContent['social']
  export default value
}

declare module '*/content/sitio.yml?field=header' {
  const value: import('./schema').SiteContent['header']
  export default value
}

declare module '*/content/sitio.yml?field=footer' {
  const value: import('./schema').SiteContent['footer']
  export default value
}

declare module '*/content/sitio.yml?field=consent' {
  const value: import('./schema').SiteContent['consent']
  export default value
}

declare module '*/content/sitio.yml?field=notFound' {
  const value: import('./schema').SiteContent['notFound']
  export default value
}

declare module '*/content/inicio.yml?field=head' {
  const value: import('./schema').HomeContent['head']
  export default value
}

declare module '*/content/inicio.yml?field=hero' {
  const value: import('./schema').HomeContent['hero']
  export default value
}

declare module '*/content/inicio.yml?field=heroActions' {
  const value: import('./schema').HomeContent['heroActions']
  export default value
}

declare module '*/content/inicio.yml?field=heroBoard' {
  const value: import('./schema').HomeContent['heroBoard']
  export default value
}

declare module '*/content/inicio.yml?field=videoDialog' {
  const value: import('./schema').HomeContent['videoDialog']
  export default value
}

declare module '*/content/inicio.yml?field=carousel' {
  const value: import('./schema').HomeContent['carousel']
  export default value
}

declare module '*/content/inicio.yml?field=clients' {
  const value: import('./schema').HomeContent['clients']
  export default value
}

declare module '*/content/inicio.yml?field=pillars' {
  const value: import('./schema').HomeContent['pillars']
  export default value
}

declare module '*/content/inicio.yml?field=productVideo' {
  const value: import('./schema').HomeContent['productVideo']
  export default value
}

declare module '*/content/inicio.yml?field=videoSection' {
  const value: import('./schema').HomeContent['videoSection']
  export default value
}

declare module '*/content/inicio.yml?field=demoSection' {
  const value: import('./schema').HomeContent['demoSection']
  export default value
}

declare module '*/content/formulario.yml?field=demoForm' {
  const value: import('./schema').FormContent['demoForm']
  export default value
}

declare module '*/content/formulario.yml?field=fallbackMessage' {
  const value: import('./schema').FormContent['fallbackMessage']
  export default value
}

declare module '*/content/tyc.yml' {
  const value: import('./schema').TermsPageContent
  export default value
}

declare module '*/content/terminos.md' {
  const document: import('./schema').ProseDocument
  export default document
}

declare module '*/content/privacidad.md' {
  const document: import('./schema').ProseDocument
  export default document
}
