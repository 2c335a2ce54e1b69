// Written by pipeline/loader/content-files.test.ts from src/copy/schema.ts: do not edit.
// `npx vitest run pipeline/loader/content-files.test.ts -u` writes it again.
//
// The modules the content plugin (pipeline/loader/plugin.ts) makes of the files in content/,
// typed by the schema they are checked against. A YAML file's fields are imported one by one
// (`inicio.yml?field=hero`): a script then carries, and a build processes, only the fields it
// uses. The whole file is a module too.
/* eslint-disable @typescript-eslint/consistent-type-imports -- an ambient module cannot import */

declare module '*/content/sitio.yml' {
  const value: import('./schema').ContentOf<'sitio.yml'>
  export default value
}
declare module '*/content/sitio.yml?field=company' {
  const value: import('./schema').ContentOf<'sitio.yml'>['company']
  export default value
}
declare module '*/content/sitio.yml?field=contact' {
  const value: import('./schema').ContentOf<'sitio.yml'>['contact']
  export default value
}
declare module '*/content/sitio.yml?field=social' {
  const value: import('./schema').ContentOf<'sitio.yml'>['social']
  export default value
}
declare module '*/content/sitio.yml?field=header' {
  const value: import('./schema').ContentOf<'sitio.yml'>['header']
  export default value
}
declare module '*/content/sitio.yml?field=footer' {
  const value: import('./schema').ContentOf<'sitio.yml'>['footer']
  export default value
}
declare module '*/content/sitio.yml?field=consent' {
  const value: import('./schema').ContentOf<'sitio.yml'>['consent']
  export default value
}
declare module '*/content/sitio.yml?field=notFound' {
  const value: import('./schema').ContentOf<'sitio.yml'>['notFound']
  export default value
}
declare module '*/content/inicio.yml' {
  const value: import('./schema').ContentOf<'inicio.yml'>
  export default value
}
declare module '*/content/inicio.yml?field=head' {
  const value: import('./schema').ContentOf<'inicio.yml'>['head']
  export default value
}
declare module '*/content/inicio.yml?field=hero' {
  const value: import('./schema').ContentOf<'inicio.yml'>['hero']
  export default value
}
declare module '*/content/inicio.yml?field=heroActions' {
  const value: import('./schema').ContentOf<'inicio.yml'>['heroActions']
  export default value
}
declare module '*/content/inicio.yml?field=heroBoard' {
  const value: import('./schema').ContentOf<'inicio.yml'>['heroBoard']
  export default value
}
declare module '*/content/inicio.yml?field=videoDialog' {
  const value: import('./schema').ContentOf<'inicio.yml'>['videoDialog']
  export default value
}
declare module '*/content/inicio.yml?field=carousel' {
  const value: import('./schema').ContentOf<'inicio.yml'>['carousel']
  export default value
}
declare module '*/content/inicio.yml?field=clients' {
  const value: import('./schema').ContentOf<'inicio.yml'>['clients']
  export default value
}
declare module '*/content/inicio.yml?field=pillars' {
  const value: import('./schema').ContentOf<'inicio.yml'>['pillars']
  export default value
}
declare module '*/content/inicio.yml?field=productVideo' {
  const value: import('./schema').ContentOf<'inicio.yml'>['productVideo']
  export default value
}
declare module '*/content/inicio.yml?field=videoSection' {
  const value: import('./schema').ContentOf<'inicio.yml'>['videoSection']
  export default value
}
declare module '*/content/inicio.yml?field=demoSection' {
  const value: import('./schema').ContentOf<'inicio.yml'>['demoSection']
  export default value
}
declare module '*/content/formulario.yml' {
  const value: import('./schema').ContentOf<'formulario.yml'>
  export default value
}
declare module '*/content/formulario.yml?field=demoForm' {
  const value: import('./schema').ContentOf<'formulario.yml'>['demoForm']
  export default value
}
declare module '*/content/formulario.yml?field=booking' {
  const value: import('./schema').ContentOf<'formulario.yml'>['booking']
  export default value
}
declare module '*/content/formulario.yml?field=bookingPage' {
  const value: import('./schema').ContentOf<'formulario.yml'>['bookingPage']
  export default value
}
declare module '*/content/formulario.yml?field=bookingAnswers' {
  const value: import('./schema').ContentOf<'formulario.yml'>['bookingAnswers']
  export default value
}
declare module '*/content/formulario.yml?field=fallbackMessage' {
  const value: import('./schema').ContentOf<'formulario.yml'>['fallbackMessage']
  export default value
}
declare module '*/content/tyc.yml' {
  const value: import('./schema').ContentOf<'tyc.yml'>
  export default value
}
declare module '*/content/tyc.yml?field=title' {
  const value: import('./schema').ContentOf<'tyc.yml'>['title']
  export default value
}
declare module '*/content/tyc.yml?field=description' {
  const value: import('./schema').ContentOf<'tyc.yml'>['description']
  export default value
}
declare module '*/content/tyc.yml?field=lastUpdated' {
  const value: import('./schema').ContentOf<'tyc.yml'>['lastUpdated']
  export default value
}
declare module '*/content/tyc.yml?field=updatedPrefix' {
  const value: import('./schema').ContentOf<'tyc.yml'>['updatedPrefix']
  export default value
}
declare module '*/content/tyc.yml?field=tocTitle' {
  const value: import('./schema').ContentOf<'tyc.yml'>['tocTitle']
  export default value
}
declare module '*/content/tyc.yml?field=backHome' {
  const value: import('./schema').ContentOf<'tyc.yml'>['backHome']
  export default value
}
declare module '*/content/terminos.md' {
  const value: import('./schema').ProseDocument
  export default value
}
declare module '*/content/privacidad.md' {
  const value: import('./schema').ProseDocument
  export default value
}
