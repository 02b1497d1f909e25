import {normText} from './phrase.js'
import {CJK, cjkRuns, hasCjk, isZhStop, type Token, tokensOf, zhWords} from './tokenize.js'

/**
 * Matching across languages and wordings. A "form" is how a concept can appear in a text: an
 * English form is a sequence of stems joined by spaces ("merg conflict": every stem present), a
 * Chinese form is a word ("合并冲突": present in the text). The translator maps a key (a Chinese
 * word, or an English stem sequence of one to three words) to the forms of the same concept in
 * the other language. The dictionary is used zh→en only (CC-CEDICT's direction); the glossary and
 * the team's lexicon work both ways, but never within one language.
 */
export interface LexiconInput {
  /** Chinese word → English glosses, most common sense first (CC-CEDICT subset). */
  cedict: ReadonlyMap<string, readonly string[]>
  /** Groups of terms that name one concept: the team's lexicon first, then the shipped glossary. */
  groups: readonly {en: readonly string[]; zh: readonly string[]}[]
}

export interface Translator {
  /** Forms of the same concept, for a key: a Chinese word or an English stem sequence. */
  forms(key: string): readonly string[]
  /** The longest English key a glossary entry has, in words. */
  maxWords: number
  /** Every key with its forms. */
  entries(): Iterable<[string, readonly string[]]>
}

/** At most this many forms per key: the first glosses are the common senses, the rest mostly noise. */
const MAX_FORMS = 6

/** The form of a text: a Chinese word as it is, an English text as its content stems. Empty when nothing is left. */
export function formOf(text: string): string {
  const norm = normText(text)
  // A term mixing scripts ("git 钩子") would lose one of them as a form: it is left out.
  if (hasCjk(norm)) return /[a-z0-9]/.test(norm) ? '' : norm.replace(/\s+/g, '')
  return tokensOf(norm)
    .filter(t => t.kind === 'word' && t.weight > 0)
    .map(t => t.term)
    .join(' ')
}

const hasStopWord = (gloss: string): boolean => tokensOf(normText(gloss)).some(t => t.kind === 'word' && t.weight === 0)

export function makeTranslator(input: LexiconInput): Translator {
  const map = new Map<string, string[]>()
  const add = (key: string, form: string) => {
    if (!key || !form || form === key) return
    const list = map.get(key)
    if (!list) map.set(key, [form])
    else if (list.length < MAX_FORMS && !list.includes(form)) list.push(form)
  }
  let maxWords = 1
  // Groups first, so a glossary's precise terms come before a dictionary's senses. A group maps
  // across languages only: same-language synonyms meet through stems ("paging" is "page"), which
  // turned near words into false recalls when measured.
  for (const g of input.groups) {
    const en = g.en.map(formOf).filter(Boolean)
    const zh = g.zh.map(formOf).filter(Boolean)
    for (const f of en) {
      maxWords = Math.max(maxWords, f.split(' ').length)
      for (const other of zh) add(f, other)
    }
    for (const f of zh) for (const other of en) add(f, other)
  }
  // A dictionary gloss with a function word ("log in", "give a name") loses its sense as stems: it is left out.
  for (const [zh, glosses] of input.cedict) for (const g of glosses) if (!hasStopWord(g)) add(zh, formOf(g))
  return {
    forms: key => map.get(key) ?? [],
    maxWords: Math.min(maxWords, 3),
    entries: () => map.entries(),
  }
}

/**
 * The translator's table as text, one "key\tform|form\n" line per key sorted in byte order,
 * after a "# cairn-lexicon-forms <version> <maxWords>" line: what the build precomputes from the
 * shipped data (scripts/lexicon-forms.js), so an index rebuild reads a file instead of stemming
 * every gloss of the dictionary.
 */
export function formsText(tr: Translator, version: string): string {
  const rows = [...tr.entries()].filter(([k, forms]) => forms.length && !/[\t\n|]/.test(k))
  rows.sort((a, b) => compareTerms(a[0], b[0]))
  return `# cairn-lexicon-forms ${version} ${tr.maxWords}\n${rows.map(([k, forms]) => `${k}\t${forms.join('|')}\n`).join('')}`
}

const FORMS_HEAD = /^# cairn-lexicon-forms (\S+) (\d+)\n/

/** The version a forms text was built from (its head is enough), or null when the text is not one. */
export function formsVersion(text: string): string | null {
  return FORMS_HEAD.exec(text.slice(0, 200))?.[1] ?? null
}

const TAB = 9
const NEWLINE = 10

/** A translator over a forms text (formsText), by binary search over its lines. */
export function formsTranslator(text: string): Translator {
  const head = FORMS_HEAD.exec(text)
  if (!head) throw new Error('not a cairn lexicon forms file')
  const starts: number[] = []
  for (let i = head[0].length; i < text.length; i = text.indexOf('\n', i) + 1) {
    starts.push(i)
    if (text.indexOf('\n', i) < 0) break
  }
  const keyAt = (k: number) => text.slice(starts[k], text.indexOf('\t', starts[k]))
  // compareTerms(keyAt(k), key) without cutting the key out (a lookup compares a dozen lines): UTF-16
  // units order as code points do below the surrogates; from there on, compareTerms decides.
  const compareAt = (k: number, key: string): number => {
    for (let i = 0, p = starts[k]; ; i++, p++) {
      const x = text.charCodeAt(p)
      if (x === NEWLINE || p >= text.length) return compareTerms(keyAt(k), key)
      if (i === key.length) return x === TAB ? 0 : 1
      if (x === TAB) return -1
      const y = key.charCodeAt(i)
      if (x !== y) return x >= 0xd800 || y >= 0xd800 ? compareTerms(keyAt(k), key) : x < y ? -1 : 1
    }
  }
  const formsAt = (k: number) => text.slice(text.indexOf('\t', starts[k]) + 1, text.indexOf('\n', starts[k])).split('|')
  return {
    forms(key) {
      let lo = 0
      let hi = starts.length - 1
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        const c = compareAt(mid, key)
        if (c === 0) return formsAt(mid)
        if (c < 0) lo = mid + 1
        else hi = mid - 1
      }
      return []
    },
    maxWords: Number(head[2]),
    *entries() {
      for (let k = 0; k < starts.length; k++) yield [keyAt(k), formsAt(k)]
    },
  }
}

/** A team's translator before the shipped one: its forms come first for a key both hold. */
export function layered(first: Translator, then: Translator): Translator {
  return {
    forms: key => {
      const a = first.forms(key)
      return a.length ? [...new Set([...a, ...then.forms(key)])].slice(0, MAX_FORMS) : then.forms(key)
    },
    maxWords: Math.max(first.maxWords, then.maxWords),
    *entries() {
      const seen = new Set<string>()
      for (const [k] of first.entries()) {
        seen.add(k)
        yield [k, [...new Set([...first.forms(k), ...then.forms(k)])].slice(0, MAX_FORMS)]
      }
      for (const e of then.entries()) if (!seen.has(e[0])) yield e
    },
  }
}

/**
 * UTF-8 byte order (the order of code points), without encoding: the order of every sorted table
 * cairn writes and searches, the index's terms and lexicon regions and the forms file.
 */
export function compareTerms(a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(i)!
    if (x !== y) return x < y ? -1 : 1
    if (x > 0xffff) i++
  }
  return a.length < b.length ? -1 : 1
}

/** A concept unit of a phrase: its forms joined by "|" (its own form first), and its weight. */
export type Concept = [string, number]

/**
 * The concept units of a normalised phrase: Chinese runs by ICU words (a lone character weighs
 * half, function words nothing), English by the longest glossary key at each word (else the
 * word's stem), technical compounds whole. Each unit lists its own form and its translations.
 */
export function conceptsOf(norm: string, tr: Translator, tokens: (norm: string) => Token[] = tokensOf): Concept[] {
  const out: Concept[] = []
  const seen = new Set<string>()
  const unit = (own: string, w: number, alias?: string) => {
    // A word said twice in a phrase is one unit, as it is one term.
    if (seen.has(own)) return
    seen.add(own)
    const forms = [own, ...tr.forms(own), ...(alias ? tr.forms(alias) : [])]
    out.push([[...new Set(forms)].join('|'), w])
  }
  const runs = cjkRuns(norm)
  let at = 0
  const latin = (text: string) => {
    // A phrase without Chinese is one Latin stretch, tokenised already (buildDoc passes its tokens).
    const toks = tokens(text)
    const compounds = toks.filter(t => t.kind === 'compound')
    const words = toks.filter(
      t => t.kind === 'word' && t.weight > 0 && !compounds.some(c => t.start >= c.start && t.end <= c.end),
    )
    // A hyphenated or dotted term ("cherry-pick", "two-factor") is also known by its words.
    for (const c of compounds) unit(c.term, 1, partsKey(c.term))
    for (let i = 0; i < words.length;) {
      let n = Math.min(tr.maxWords, words.length - i)
      for (; n > 1; n--)
        if (
          tr.forms(
            words
              .slice(i, i + n)
              .map(w => w.term)
              .join(' '),
          ).length
        )
          break
      unit(
        words
          .slice(i, i + n)
          .map(w => w.term)
          .join(' '),
        n,
      )
      i += n
    }
  }
  for (const {run, start} of runs) {
    latin(norm.slice(at, start))
    for (const w of joinKnown(zhWords(run), k => tr.forms(k).length > 0))
      if (!isZhStop(w)) unit(w, w.length === 1 ? 0.5 : 1)
    at = start + run.length
  }
  latin(norm.slice(at))
  return out
}

/**
 * ICU's words, with neighbours joined where the lexicon knows the longer word: ICU splits some
 * terms ("数据|库", "前回|滚") that the dictionary has whole ("数据库").
 */
function joinKnown(words: string[], known: (word: string) => boolean): string[] {
  const out: string[] = []
  for (let i = 0; i < words.length;) {
    let n = 1
    for (let k = Math.min(3, words.length - i); k > 1; k--) {
      const joined = words.slice(i, i + k).join('')
      if (joined.length <= 4 && known(joined)) {
        n = k
        break
      }
    }
    out.push(words.slice(i, i + n).join(''))
    i += n
  }
  return out
}

/** A compound's words as an English key: "cherry-pick" is "cherri pick". */
const partsKey = (compound: string): string => formOf(compound.replace(/[._\-/+#]+/g, ' '))

/** The keys of a normalised prompt to look up: English stems and stem sequences, Chinese ICU words and bigrams. */
/** Only the start of a long prompt is expanded: past this, lookups would cost more than a hook may spend. */
const EXPAND_CHARS = 4000

export function promptKeys(text: string, maxWords = 3): string[] {
  const norm = text.slice(0, EXPAND_CHARS)
  const keys = new Set<string>()
  const runs = cjkRuns(norm)
  let at = 0
  const latin = (text: string) => {
    const toks = tokensOf(text)
    for (const t of toks) {
      if (t.kind !== 'compound') continue
      keys.add(t.term)
      keys.add(partsKey(t.term))
    }
    const words = toks.filter(t => t.kind === 'word' && t.weight > 0)
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= maxWords && i + n <= words.length; n++) {
        // Only adjacent words make a sequence ("merge the conflict" is no "merge conflict"); a hyphen joins.
        if (n > 1 && !/^\s*[-_/.]?\s*$/.test(text.slice(words[i + n - 2].end, words[i + n - 1].start))) break
        keys.add(
          words
            .slice(i, i + n)
            .map(w => w.term)
            .join(' '),
        )
      }
    }
  }
  for (const {run, start} of runs) {
    latin(norm.slice(at, start))
    for (const w of zhWords(run)) if (!isZhStop(w)) keys.add(w)
    // Every stretch of two to four characters too: ICU splits some terms the dictionary has whole.
    for (let i = 0; i + 1 < run.length; i++) {
      for (let n = 2; n <= 4 && i + n <= run.length; n++) {
        const k = run.slice(i, i + n)
        if (n > 2 || !isZhStop(k)) keys.add(k)
      }
    }
    at = start + run.length
  }
  latin(norm.slice(at))
  return [...keys]
}

/** The terms a form contributes to a text it is added to: its stems, or a Chinese word's bigrams and characters. */
export function formTerms(form: string): string[] {
  if (!hasCjk(form)) return form.split(' ')
  return tokensOf(form)
    .filter(t => t.weight > 0)
    .map(t => t.term)
}

/**
 * The prompt's words as concepts: English content stems, technical compounds, Chinese ICU words,
 * joined where the lexicon knows the longer word (as conceptsOf joins a card's).
 */
export function promptWords(text: string, known: (word: string) => boolean): string[] {
  const norm = text.slice(0, EXPAND_CHARS)
  const out = new Set<string>()
  for (const t of tokensOf(norm.replace(new RegExp(`[${CJK}]+`, 'g'), ' '))) if (t.weight > 0) out.add(t.term)
  for (const {run} of cjkRuns(norm)) for (const w of joinKnown(zhWords(run), known)) if (!isZhStop(w)) out.add(w)
  return [...out]
}
