import type { Inline, ProseBlock } from '../copy/schema'

/** A run of legal text: plain words, or a link the content schema allowed. */
function Inlines({ content }: { content: readonly Inline[] }) {
  return content.map((part, index) =>
    typeof part === 'string' ? (
      part
    ) : (
      <a key={index} href={part.href}>
        {part.text}
      </a>
    ),
  )
}

/** A block of a Markdown text from content/: a paragraph or a bulleted list. */
export function ProseBlocks({ blocks }: { blocks: readonly ProseBlock[] }) {
  return blocks.map((block, index) =>
    block.kind === 'paragraph' ? (
      <p key={index}>
        <Inlines content={block.content} />
      </p>
    ) : (
      <ul key={index}>
        {block.items.map((item, itemIndex) => (
          <li key={itemIndex}>
            <Inlines content={item} />
          </li>
        ))}
      </ul>
    ),
  )
}
