import {normalize, WORD} from './tokenize.js'

/** Text as the matcher compares it: NFKC, lowercase, whitespace collapsed. */
export {normText} from '../../domain/text.js'

const WORD_CHAR = new RegExp(`[${WORD}]`)
const latin = (c: string | undefined): boolean => !!c && WORD_CHAR.test(c)

/**
 * Start offsets where the normalised phrase occurs in the normalised text. Latin edges must sit
 * on word boundaries ("git" does not occur in "github"); CJK needs none, it has no spaces.
 */
export function phraseOccurrences(text: string, phrase: string): number[] {
  const out: number[] = []
  if (!phrase) return out
  const first = phrase[0]
  const last = phrase[phrase.length - 1]
  for (let i = text.indexOf(phrase); i >= 0; i = text.indexOf(phrase, i + 1)) {
    if (latin(first) && latin(text[i - 1])) continue
    if (latin(last) && latin(text[i + phrase.length])) continue
    out.push(i)
  }
  return out
}
