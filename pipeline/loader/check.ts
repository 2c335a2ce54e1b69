import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { contentFiles, ImageReference, proseFiles } from '../../src/copy/schema.ts'
import { ContentError, fieldPath } from './content-error.ts'
import { ImageProblem, processImage } from './images.ts'
import { checkContentFile, CONTENT_DIR, parseProseFile, type ContentFileName } from './read.ts'

/** Every ImageReference in checked content, with where it is. */
function* pictures(
  node: unknown,
  at: (string | number)[] = [],
): Generator<[ImageReference, (string | number)[]]> {
  if (node instanceof ImageReference) yield [node, at]
  else if (Array.isArray(node))
    for (const [index, item] of node.entries()) yield* pictures(item, [...at, index])
  else if (node && typeof node === 'object')
    for (const [key, item] of Object.entries(node)) yield* pictures(item, [...at, key])
}

/**
 * Every problem in content/, each file read and each picture processed, before the build
 * starts: the person who edits gets the whole list at once, each with its file, line and field,
 * instead of the bundler's report of the first module that failed.
 */
export async function contentProblems(directory = CONTENT_DIR): Promise<ContentError[]> {
  const problems: ContentError[] = []
  for (const name of Object.keys(contentFiles) as ContentFileName[]) {
    try {
      const { data, lineAt } = checkContentFile(name, readFileSync(join(directory, name), 'utf8'))
      for (const [picture, at] of pictures(data)) {
        await processImage(picture, directory).catch((error: unknown) => {
          if (!(error instanceof ImageProblem)) throw error
          problems.push(
            new ContentError(`content/${name}`, lineAt(at), fieldPath(at), error.message),
          )
        })
      }
    } catch (error) {
      if (!(error instanceof ContentError)) throw error
      problems.push(error, ...error.more)
    }
  }
  for (const name of proseFiles) {
    try {
      parseProseFile(name, readFileSync(join(directory, name), 'utf8'))
    } catch (error) {
      if (!(error instanceof ContentError)) throw error
      problems.push(error)
    }
  }
  return problems
}
