/** Copy around the legal text on /tyc (the legal text itself is in terms.ts). */
export const termsPage = {
  updatedPrefix: 'Última actualización:',
  termsPartTitle: 'Términos y condiciones de uso',
  backHome: 'Volver al inicio',
} as const
