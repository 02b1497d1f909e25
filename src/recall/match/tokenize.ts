import {createRequire} from 'node:module'
import {memo} from './memo.js'

// Required, not imported: an ES import of a CommonJS package starts Node's CJS lexer (about 5 ms
// of every hook call), and porter2 is the only CommonJS package on the prompt path.
const {stem: porter2} = createRequire(import.meta.url)('porter2') as typeof import('porter2')

/**
 * The recall tokeniser: NFKC and lowercase; Latin words (Porter2 stems, so "validated" meets
 * "validation"); dotted, hyphenated or slashed technical tokens kept whole as well as split
 * ("design.md", "/goal", "goal.start"), because those survive across languages; runs of CJK
 * characters become unigrams plus bigrams, so Chinese matches inside a run without a dictionary.
 * Chinese words (zhWords, from ICU's segmenter) are what the lexicon translates.
 */

export type TokenKind = 'word' | 'compound' | 'uni' | 'bi'

export interface Token {
  /** The index term (stemmed for words). */
  term: string
  kind: TokenKind
  /** Evidence weight: roughly one unit per word-equivalent; stop words weigh 0. */
  weight: number
  /** Offsets in the normalised text. */
  start: number
  end: number
}

export const normalize = (text: string): string => text.normalize('NFKC').toLowerCase()

/**
 * Character classes as explicit ranges: Unicode property classes cost milliseconds to compile on
 * first use, which a prompt hook cannot spare. Cards are English or Chinese, so words are Latin
 * (with Greek and Cyrillic) letters and digits, and CJK covers Han, kana and Hangul.
 */
export const CJK =
  '\\u3040-\\u30ff\\u3130-\\u318f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\u1100-\\u11ff'
export const WORD = 'a-z0-9\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff'
// A CJK run, or a word run with internal connectors, or a slash command like "/goal".
const SCAN = new RegExp(`[${CJK}]+|\\/?[${WORD}]+(?:[._\\-\\/+#][${WORD}]+)*`, 'g')
const CJK_CHAR = new RegExp(`^[${CJK}]`)
const PART = new RegExp(`[${WORD}]+`, 'g')
const PLAIN_WORD = new RegExp(`^[${WORD}]+$`)
export const isSingleCjk = (t: string): boolean => t.length === 1 && CJK_CHAR.test(t)

export const EN_STOP = new Set(
  (
    'a an the and or but nor of to in on at by for with from into onto as is are was were be been being am it its this that these those ' +
    'then than so if when while do does did can could should would will shall may might must i we you he she they me us our your my ' +
    'their them there here what which who whom how why where just also very all any some each every about after before over under up ' +
    'down out off again more most such same other own too via per let lets not no only even still yet already now please etc e g ie ' +
    'one s t'
  ).split(' '),
)
/** Function characters of Chinese: as single characters they carry no topic. */
const ZH_STOP_CHARS = new Set([
  ...'的了是在和与或也都就把被要这那个一有上下中里到给让对为以及等而并且之其着过吗呢吧啊我你他她它们不没很更最还又再才只从向于将会能可该此',
])
/** Common two-character function words; as bigrams they carry no topic either. */
const ZH_STOP_BIGRAMS = new Set(
  '可以 需要 这个 一个 我们 因为 所以 但是 如果 已经 进行 之前 之后 时候 什么 怎么 为了 没有 还是 或者 以及 并且 而且 然后 其中 就是 只是 这里 那里 这些 那些 现在 应该 可能 一下 不要 不是 不能 不会 用户'
    .split(' ')
    .filter(w => w !== '用户'),
)

export const WEIGHTS = {word: 1, compound: 1, bi: 0.5, uni: 0.25}

/** An English word's stem (Porter2); numbers and words of three letters or fewer stay as they are. */
export function stem(word: string): string {
  return word.length <= 3 || /\d/.test(word) ? word : porterStem(word)
}
// A team's cards share their vocabulary: an index build stems the same few thousand words again and again.
const porterStem = memo(porter2, 50_000)

let segmenter: Intl.Segmenter | undefined

/**
 * The words of a CJK run, by ICU's dictionary segmenter (Node's Intl.Segmenter). It is made on
 * first use (about 15 ms), so only prompts and cards with Chinese pay for it. ICU splits some
 * software terms into single characters ("回滚" can come out as "前回|滚"), which is why matching
 * keeps bigrams and the lexicon is also asked about every bigram.
 */
export function zhWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', {granularity: 'word'})
  const out: string[] = []
  for (const s of segmenter.segment(run)) if (s.isWordLike) out.push(s.segment)
  return out
}

/** Whether a CJK word carries no topic on its own (a function character or a common function word). */
export const isZhStop = (w: string): boolean => (w.length === 1 ? ZH_STOP_CHARS.has(w) : ZH_STOP_BIGRAMS.has(w))

/** CJK runs of normalised text, with their offsets. */
export function cjkRuns(norm: string): {run: string; start: number}[] {
  const out = []
  for (const m of norm.matchAll(CJK_RUN)) out.push({run: m[0], start: m.index})
  return out
}
const CJK_RUN = new RegExp(`[${CJK}]+`, 'g')
export const hasCjk = (s: string): boolean => CJK_ANY.test(s)
const CJK_ANY = new RegExp(`[${CJK}]`)

/** Tokens of already-normalised text, in order of appearance. */
export function tokensOf(norm: string): Token[] {
  const out: Token[] = []
  for (const m of norm.matchAll(SCAN)) {
    const run = m[0]
    const at = m.index
    if (CJK_CHAR.test(run)) {
      const chars = run.split('')
      let offset = at
      for (let i = 0; i < chars.length; i++) {
        const c = chars[i]
        out.push({
          term: c,
          kind: 'uni',
          weight: ZH_STOP_CHARS.has(c) ? 0 : WEIGHTS.uni,
          start: offset,
          end: offset + c.length,
        })
        if (i + 1 < chars.length) {
          const bi = c + chars[i + 1]
          out.push({
            term: bi,
            kind: 'bi',
            weight: ZH_STOP_BIGRAMS.has(bi) ? 0 : WEIGHTS.bi,
            start: offset,
            end: offset + bi.length,
          })
        }
        offset += c.length
      }
      continue
    }
    // Most runs are one plain word: no split, no compound.
    if (PLAIN_WORD.test(run)) {
      out.push(word(run, at))
      continue
    }
    const parts = [...run.matchAll(PART)]
    const compound = parts.length > 1 || run.startsWith('/')
    for (const p of parts) out.push(word(p[0], at + p.index))
    if (compound) out.push({term: run, kind: 'compound', weight: WEIGHTS.compound, start: at, end: at + run.length})
  }
  return out
}

/** A Latin word at `start`: stemmed, or kept as it is with no weight when it is a stop word. */
function word(w: string, start: number): Token {
  const stop = EN_STOP.has(w)
  return {term: stop ? w : stem(w), kind: 'word', weight: stop ? 0 : WEIGHTS.word, start, end: start + w.length}
}

export const tokenize = (text: string): Token[] => tokensOf(normalize(text))

/** Distinct terms with their weight (the highest seen), for indexing and coverage. */
export function termWeights(tokens: readonly Token[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const t of tokens) out.set(t.term, Math.max(out.get(t.term) ?? 0, t.weight))
  return out
}
