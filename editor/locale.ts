/**
 * The editor's words where Decap's Spanish falls short: the sentences about checks (the
 * fields' own say what to fix), tú throughout, and every phrase its Spanish lacks, which Decap
 * would otherwise show in English.
 */
type Phrases = { [key: string]: string | Phrases }

const OVERRIDES: Phrases = {
  auth: {
    loginWithAzure: 'Iniciar sesión con Azure',
    loginWithForgejo: 'Iniciar sesión con Forgejo',
  },
  collection: {
    sidebar: { allCollections: 'Todas las colecciones', searchIn: 'Buscar en' },
    collectionTop: {
      viewAsList: 'Ver como lista',
      viewAsGrid: 'Ver como cuadrícula',
      searchResults: 'Resultados de «%{searchTerm}»',
      searchResultsInCollection: 'Resultados de «%{searchTerm}» en %{collection}',
      filterBy: 'Filtrar por',
      groupBy: 'Agrupar por',
    },
    entries: { unpublishedHeader: 'Sin publicar' },
    groups: { other: 'Otros', negateLabel: 'No %{label}' },
  },
  editor: {
    // Decap names a field's kind by its widget's name (list, string…): translated in the page.
    editorControl: { field: { widgetLabel: 'campo %{widgetLabel}' } },
    editorControlPane: {
      widget: {
        // A field's check says what is missing, in the build's words (checks.ts).
        required: '',
        invalidPath: '«%{path}» no es una ruta válida',
        pathExists: 'Ya existe «%{path}»',
      },
      i18n: {
        writingInLocale: 'Escribiendo en %{locale}',
        copyFromLocale: 'Rellenar desde otro idioma',
        copyFromLocaleConfirm:
          '¿Quieres rellenar con los datos de %{locale}?\nSe sustituirá todo el contenido actual.',
      },
    },
    editor: {
      onUpdatingWithUnsavedChanges:
        'Tienes cambios sin guardar: guárdalos antes de cambiar el estado.',
      onPublishingNotReady: 'Cambia el estado a «Listo» antes de publicar.',
      onPublishingWithUnsavedChanges: 'Tienes cambios sin guardar: guárdalos antes de publicarlos.',
      onDeleteWithUnsavedChanges:
        '¿Seguro que quieres borrar esta entrada publicada y los cambios sin guardar de esta sesión?',
    },
    editorInterface: {
      toggleI18n: 'Mostrar u ocultar idiomas',
      togglePreview: 'Mostrar u ocultar la vista previa',
      toggleScrollSync: 'Desplazar a la vez',
      toggleNotes: 'Mostrar u ocultar las notas',
    },
    editorNotesPane: {
      title: 'Notas',
      emptyState: 'Aún no hay notas. Añade la primera aquí abajo.',
      addNote: 'Añadir nota',
      addPlaceholder: 'Escribe una nota…',
      editPlaceholder: 'Edita tu nota…',
      save: 'Guardar',
      cancel: 'Cancelar',
      edit: 'Editar',
      delete: 'Borrar',
      resolve: 'Resolver',
      unresolve: 'Reabrir',
      confirmDelete: '¿Seguro que quieres borrar esta nota?',
      shortcut: 'Consejo: pulsa Ctrl+Intro para añadir la nota',
    },
    editorToolbar: {
      statusInfoTooltipDraft:
        'La entrada es un borrador. Para enviarla a revisión, cambia su estado a «En revisión».',
      statusInfoTooltipInReview:
        'La entrada está en revisión; no tienes que hacer nada más, aunque puedes seguir cambiándola.',
    },
    editorWidgets: {
      markdown: {
        bold: 'Negrita',
        italic: 'Cursiva',
        strikethrough: 'Tachado',
        code: 'Código',
        link: 'Enlace',
        linkPrompt: 'Escribe la dirección del enlace',
        headings: 'Títulos',
        quote: 'Cita',
        bulletedList: 'Lista con viñetas',
        numberedList: 'Lista numerada',
        addComponent: 'Añadir componente',
        toggleMode: {
          rich: 'Cambiar a texto con formato',
          markdown: 'Cambiar a Markdown',
        },
      },
      image: {
        chooseMultiple: 'Elige imágenes',
        chooseUrl: 'Insertar desde una dirección',
        replaceUrl: 'Sustituir por una dirección',
        promptUrl: 'Escribe la dirección de la imagen',
        addMore: 'Añadir más imágenes',
        removeAll: 'Quitar todas las imágenes',
      },
      file: {
        chooseUrl: 'Insertar desde una dirección',
        chooseMultiple: 'Elige archivos',
        replaceUrl: 'Sustituir por una dirección',
        promptUrl: 'Escribe la dirección del archivo',
        addMore: 'Añadir más archivos',
        removeAll: 'Quitar todos los archivos',
      },
      datetime: { setToNow: 'Poner «%{fieldLabel}» en este momento' },
      list: { add: 'Añadir %{item}', addType: 'Añadir %{item}' },
      object: { expand: 'Desplegar', collapse: 'Plegar' },
    },
  },
  mediaLibrary: {
    mediaLibraryCard: {
      copy: 'Copiar',
      copyUrl: 'Copiar la dirección',
      copyPath: 'Copiar la ruta',
      copyName: 'Copiar el nombre',
      copied: 'Copiado',
    },
    mediaLibrary: {
      onDelete: '¿Seguro que quieres borrar el archivo elegido?',
    },
    mediaLibraryModal: { close: 'Cerrar' },
  },
  ui: {
    errorBoundary: {
      details: 'Algo salió mal. Por favor, ',
      reportIt: 'avísanos.',
      recoveredEntry: {
        warning: 'Copia y pega esto en algún sitio antes de ir a otra página.',
      },
    },
    settingsDropdown: { account: 'Opciones de la cuenta' },
    toast: {
      missingRequiredField:
        'No se publicó nada: corrige los campos marcados en rojo; cada uno dice qué hacer.',
      onFailToPersist: 'No se publicó nada: %{details}',
      entrySaved: 'Cambios publicados',
      noteAdded: 'Nota añadida',
      onFailToAddNote: 'No se pudo añadir la nota: %{details}',
      noteUpdated: 'Nota actualizada',
      onFailToUpdateNote: 'No se pudo actualizar la nota: %{details}',
      noteDeleted: 'Nota borrada',
      onFailToDeleteNote: 'No se pudo borrar la nota: %{details}',
      noteResolved: 'Nota resuelta',
      noteReopened: 'Nota reabierta',
      onFailToToggleNote: 'No se pudo cambiar la nota: %{details}',
      onLoggedOut: 'Se cerró tu sesión: guarda una copia de lo que tengas y vuelve a entrar',
      onBackendDown: 'El servicio no responde. Más información en %{details}',
    },
  },
  workflow: {
    workflowList: {
      onDeleteEntry: '¿Seguro que quieres borrar esta entrada?',
      onPublishingNotReadyEntry:
        'Solo se publican los elementos en «Listo»: arrastra la tarjeta a esa columna para publicarla.',
    },
  },
}

function merged(base: Phrases, extra: Phrases): Phrases {
  const result: Phrases = { ...base }
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key]
    result[key] =
      typeof value === 'object' && typeof current === 'object' ? merged(current, value) : value
  }
  return result
}

/**
 * Decap's Spanish with the editor's words over it.
 * @internal exported for its test, which checks no phrase is left in English or as usted
 */
export const spanish = (decapSpanish: Phrases): Phrases => merged(decapSpanish, OVERRIDES)

type Decap = {
  getLocale(locale: string): Record<string, unknown> | undefined
  registerLocale(locale: string, phrases: Record<string, unknown>): void
}

/** Puts the editor's Spanish in place: call before CMS.init(). */
export function addSpanish(cms: Decap): void {
  cms.registerLocale('es', spanish((cms.getLocale('es') ?? {}) as Phrases))
}

/** What Decap writes in English into the page itself, outside its phrases: names read aloud. */
const ARIA_LABELS: Record<string, string> = {
  Expand: 'Desplegar',
  Collapse: 'Plegar',
  // A field's kind, named by its widget (editor.editorControl.field.widgetLabel).
  'campo list': 'lista',
  'campo string': 'texto',
  'campo text': 'texto largo',
  'campo object': 'grupo de campos',
  'campo image': 'imagen',
  'campo select': 'opciones',
}
/** Decap's «close» icon, the only content of a list item's remove button. */
const CLOSE_ICON = 'M11.916 9.96'
/** Decap's chevron, the only content of the button that folds or unfolds a list's item. */
const CHEVRON_ICON = 'm5.123 6.33'

function translate(root: ParentNode) {
  for (const element of root.querySelectorAll('[aria-label]')) {
    const spanish = ARIA_LABELS[element.getAttribute('aria-label') ?? '']
    if (spanish) element.setAttribute('aria-label', spanish)
  }
  for (const logo of root.querySelectorAll('img[alt="Logo"]'))
    logo.setAttribute('alt', 'GASPRE · Editor de contenido del sitio')
  for (const [icon, label] of [
    [CLOSE_ICON, 'Quitar'],
    [CHEVRON_ICON, 'Desplegar o plegar'],
  ]) {
    for (const path of root.querySelectorAll(`button svg path[d^="${icon}"]`)) {
      const button = path.closest('button')
      if (button && !button.hasAttribute('aria-label')) button.setAttribute('aria-label', label!)
    }
  }
}

/** Keeps the names Decap puts in the page in Spanish, as it renders. */
export function translatePage(document: Document): void {
  translate(document)
  new MutationObserver(() => translate(document.body)).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-label'],
  })
}
