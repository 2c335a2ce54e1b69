import { ButtonLink } from '../components/button'
import { terms } from '../content/terms'
import { termsPage } from '../content/terms-page'
import type { LegalBlock, LegalSection } from '../content/types'
import styles from './terms.module.css'

function Block({ block }: { block: LegalBlock }) {
  if (block.kind === 'paragraph') return <p>{block.text}</p>
  return (
    <>
      {block.lead && <p>{block.lead}</p>}
      <ul>
        {block.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  )
}

function Sections({ sections }: { sections: readonly LegalSection[] }) {
  return (
    <ol className={styles.sections}>
      {sections.map((section, index) => (
        <li key={section.id} id={section.id} tabIndex={-1} className={styles.section}>
          <h3 className={styles.sectionTitle}>
            <span className={styles.number}>{index + 1}.</span> {section.title}
          </h3>
          {section.blocks.map((block, blockIndex) => (
            <Block key={blockIndex} block={block} />
          ))}
        </li>
      ))}
    </ol>
  )
}

const tocEntries = (sections: readonly LegalSection[]) =>
  sections.map((section) => (
    <li key={section.id}>
      <a href={`#${section.id}`}>{section.title}</a>
    </li>
  ))

export function Terms() {
  return (
    <div className={styles.page}>
      <div className={`container ${styles.layout}`}>
        <header className={styles.head}>
          <h1 className={styles.title}>{terms.title}</h1>
          <p className={styles.updated}>
            {termsPage.updatedPrefix}{' '}
            <time dateTime={terms.lastUpdated.iso}>{terms.lastUpdated.label}</time>
          </p>
        </header>
        <nav className={styles.toc} aria-labelledby="indice-titulo">
          <h2 id="indice-titulo" className={styles.tocTitle}>
            {terms.tocTitle}
          </h2>
          <ol className={styles.tocList}>{tocEntries(terms.termsSections)}</ol>
          <p className={`${styles.tocTitle} ${styles.tocSub}`}>{terms.privacyTitle}</p>
          <ol className={styles.tocList}>{tocEntries(terms.privacySections)}</ol>
        </nav>
        <div className={styles.body}>
          <div className={styles.intro}>
            {terms.intro.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          {[
            { id: 'terminos', title: termsPage.termsPartTitle, sections: terms.termsSections },
            {
              id: 'aviso-de-privacidad',
              title: terms.privacyTitle,
              sections: terms.privacySections,
              intro: terms.privacyIntro,
            },
          ].map((part) => (
            <section
              key={part.id}
              id={part.id}
              className={styles.part}
              aria-labelledby={`${part.id}-titulo`}
            >
              <h2 id={`${part.id}-titulo`} className={styles.partTitle}>
                {part.title}
              </h2>
              {part.intro && <p>{part.intro}</p>}
              <Sections sections={part.sections} />
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
