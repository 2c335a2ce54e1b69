/** A content template with its `{name}` gaps filled in: 'Ir a la diapositiva {n}' → '… 3'. */
export const fillIn = (template: string, values: Record<string, number | string>) =>
  template.replace(/\{(\w+)\}/g, (gap, name: string) => String(values[name] ?? gap))
