import { ButtonLink } from '../components/button'
import { ProseBlocks } from '../components/prose'
import type { ProseSection } from '../copy/schema'
import { legalTexts, termsPage } from '../copy/terms'
import styles from './terms.module.css'

function Sections({ sections }: { sections: readonly ProseSection[] }) {
  return (
    <ol className={styles.sections}>
      {sections.map((section, index) => (
        <li key={section.id} id={section.id} tabIndex={-1} className={styles.section}>
          <h3 className={styles.sectionTitle}>
            <span className={styles.number}>{index + 1}.</span> {section.title}
          </h3>
          <ProseBlocks blocks={section.blocks} />
        </li>
      ))}
    </ol>
  )
}

const tocEntries = (sections: readonly ProseSection[]) =>
  sections.map((section) => (
    <li key={section.id}>
      <a href={`#${section.id}`}>{section.title}</a>
    </li>
  ))

export function Terms() {
  const { terms, privacy } = legalTexts
  return (
    <div className={styles.page}>
      <div className={`container ${styles.layout}`}>
        <header className={styles.head}>
          <h1 className={styles.title}>{termsPage.title}</h1>
          <p className={styles.updated}>
            {termsPage.updatedPrefix}{' '}
            <time dateTime={termsPage.lastUpdated.date}>{termsPage.lastUpdated.label}</time>
          </p>
        </header>
        <nav className={styles.toc} aria-labelledby="indice-titulo">
          <h2 id="indice-titulo" className={styles.tocTitle}>
            {termsPage.tocTitle}
          </h2>
          <ol className={styles.tocList}>{tocEntries(terms.sections)}</ol>
          <p className={`${styles.tocTitle} ${styles.tocSub}`}>{privacy.title}</p>
          <ol className={styles.tocList}>{tocEntries(privacy.sections)}</ol>
        </nav>
        <div className={styles.body}>
          <div className={styles.intro}>
            <ProseBlocks blocks={terms.intro} />
          </div>
          {[
            { id: 'terminos', document: terms, intro: [] },
            { id: 'aviso-de-privacidad', document: privacy, intro: privacy.intro },
          ].map((part) => (
            <section
              key={part.id}
              id={part.id}
              className={styles.part}
              aria-labelledby={`${part.id}-titulo`}
            >
              <h2 id={`${part.id}-titulo`} className={styles.partTitle}>
                {part.document.title}
              </h2>
              <ProseBlocks blocks={part.intro} />
              <Sections sections={part.document.sections} />
            </section>
          ))}
          <ButtonLink className={styles.back} href="/" variant="secondary">
            {termsPage.backHome}
          </ButtonLink>
        </div>
      </div>
    </div>
  )
}
