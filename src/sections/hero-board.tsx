import { heroBoard, type BoardMove, type BoardRow } from '../copy/home'
import styles from './hero-board.module.css'

const moveClass: Record<BoardMove, string | undefined> = {
  down: styles.down,
  up: styles.up,
  same: undefined,
}

function Row({ row, own = false }: { row: BoardRow; own?: boolean }) {
  return (
    <div className={`${styles.row} ${own ? styles.own : ''}`}>
      <span className={styles.station}>
        <span className={styles.badge}>{row.badge}</span>
        <span className={styles.name}>{row.name}</span>
      </span>
      {row.prices.map((price, index) => (
        <span key={index} className={`${styles.price} ${moveClass[row.moves[index]!] ?? ''}`}>
          {price}
        </span>
      ))}
    </div>
  )
}

/**
 * The product at work beside the headline, drawn in HTML and CSS (no image to fetch or decode):
 * a competitor price board and the WhatsApp alert it sends. One picture for assistive
 * technology, named by its label; shown from 72rem up, where the hero has room for it.
 */
export function HeroBoard() {
  return (
    <div className={styles.board} role="img" aria-label={heroBoard.label}>
      <div className={styles.card}>
        <div className={styles.head}>
          <div>
            <p className={styles.title}>{heroBoard.title}</p>
            <p className={styles.meta}>{heroBoard.meta}</p>
          </div>
          <span className={styles.live}>{heroBoard.live}</span>
        </div>
        <div className={`${styles.row} ${styles.columns}`}>
          {heroBoard.columns.map((column) => (
            <span key={column}>{column}</span>
          ))}
        </div>
        {heroBoard.competitors.map((row) => (
          <Row key={row.name} row={row} />
        ))}
        <Row row={heroBoard.own} own />
        <p className={styles.suggestion}>
          {heroBoard.suggestion.label}
          <strong>{heroBoard.suggestion.value}</strong>
        </p>
      </div>
      <div className={styles.alert}>
        <p className={styles.sender}>
          <span className={styles.chat} />
          {heroBoard.alert.sender}
        </p>
        <p className={styles.message}>{heroBoard.alert.text}</p>
        <p className={styles.time}>{heroBoard.alert.time}</p>
      </div>
    </div>
  )
}
