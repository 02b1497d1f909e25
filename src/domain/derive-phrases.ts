import {GENERIC_EN, STOP_EN, STOP_ZH} from './derive-words.js'

/** Candidate key phrases of a text, for deriveTriggers to rank: English runs, Chinese runs, code tokens. */

export interface Candidate {
  text: string
  words: number
  code: boolean
  cjk: boolean
}

export const CJK = /[\u3400-\u9fff\uf900-\ufaff]/
const CJK_SPLIT = /([\u3400-\u9fff\uf900-\ufaff]+)/
const BACKTICKS = /`([^`\n]+)`/g
const MAX_EN_WORDS = 3
export const MAX_ZH_CHARS = 8

/** Candidate phrases of one text, in reading order: quoted code, then Chinese and English stretches. */
export function candidatesOf(text: string): Candidate[] {
  const out: Candidate[] = []
  for (const m of text.matchAll(BACKTICKS)) {
    const quoted = m[1].trim()
    const words = quoted.split(/\s+/).length
    if (words > MAX_EN_WORDS + 1 || quoted.length > 60) continue
    out.push({text: quoted, words, code: true, cjk: CJK.test(quoted)})
  }
  for (const part of text.replace(BACKTICKS, ' | ').split(CJK_SPLIT)) {
    if (!part) continue
    out.push(...(CJK.test(part) ? chinesePhrases(part) : englishPhrases(part)))
  }
  return out
}

let segmenter: Intl.Segmenter | undefined
const PLACE_TIME = new Set('时前后中里内上下等')
/** Characters that end a noun ICU leaves apart (错误|码, 占位|符, 客户|端): they join the word before. */
const SUFFIX = new Set('码符串器表库键者端性化率量值度号型线池栈')
/**
 * A modal or adverb ICU joins to the verb after it (要|写 as 要写, 只|做 as 只做): split when the second
 * character is one of these verbs, so 就业, 先验, 还原 and 只读 stay whole.
 */
const MODAL = new Set('要先再都就才还也又只')
const VERB = new Set('写做改加跑用看删建测')
/** A Chinese phrase holds at most this many words: more is a clause (不许|随意|新建|文件), not a term. */
const MAX_ZH_WORDS = 3

/** Runs of words between function words, each cut into terms of at most three words. */
function chinesePhrases(text: string): Candidate[] {
  segmenter ??= new Intl.Segmenter('zh', {granularity: 'word'})
  const out: Candidate[] = []
  let run: string[] = []
  const flush = () => {
    for (const piece of joined(run).flatMap(halves)) {
      const text = piece.join('')
      // ICU splits many terms into single characters, so length counts words better than segments do.
      if (text.length >= 2) out.push({text, words: Math.min(3, Math.floor(text.length / 2)), code: false, cjk: true})
    }
    run = []
  }
  const segments = [...segmenter.segment(text)].map(s => s.segment)
  segments.forEach((segment, i) => {
    // ICU splits a word it does not know into characters (时|区, 前|缀): a place or time character
    // then starts a word, unless it follows such a character itself (流水|线|里|缓|存).
    const lone = (s = '') => s.length === 1 && !STOP_ZH.has(s)
    const starts = PLACE_TIME.has(segment) && lone(segments[i + 1]) && !lone(segments[i - 1])
    // ICU joins function characters into one segment (都要, 才能): all of them stop words, it is one too.
    if (!starts && (STOP_ZH.has(segment) || [...segment].every(ch => STOP_ZH.has(ch)))) flush()
    else if (segment.length === 2 && MODAL.has(segment[0]) && VERB.has(segment[1])) {
      // A modal joined to its verb (要|写 as 要写): the modal ends the phrase before it.
      flush()
      run.push(segment[1])
    } else run.push(segment)
  })
  flush()
  return out
}

/**
 * Words of a run, as ICU left them apart: two or three characters in a row are one word it did not
 * know (回|滚, 缓|存), and a noun suffix joins the word before it (错误|码).
 */
function joined(run: string[]): string[][] {
  const parts: string[][] = [[]]
  let chars = ''
  const close = () => {
    // Four characters or more in a row are several words whose bounds ICU did not see: an even
    // number are words of two (网|关|回|调 is 网关 and 回调), as most Chinese words are; an odd
    // number past three has no bound to cut at with confidence, and breaks the run.
    if (chars.length > 3 && chars.length % 2 === 0) parts.at(-1)!.push(...(chars.match(/../g) ?? []))
    else if (chars.length > 3) parts.push([])
    else if (chars) parts.at(-1)!.push(chars)
    chars = ''
  }
  for (const segment of run) {
    const words = parts.at(-1)!
    if (segment.length === 1 && chars) chars += segment
    else if (segment.length === 1 && words.length && SUFFIX.has(segment) && words.at(-1)!.length >= 2)
      words[words.length - 1] += segment
    else if (segment.length === 1) chars = segment
    else {
      close()
      parts.at(-1)!.push(segment)
    }
  }
  close()
  return parts
}

/** A run over 8 characters or three words, cut at the word boundary nearest its middle until every piece fits. */
function halves(run: string[]): string[][] {
  const total = run.join('').length
  const fits = total <= MAX_ZH_CHARS && run.length <= MAX_ZH_WORDS
  if (fits || run.length < 2) return fits ? [run] : []
  let [cut, best, at] = [1, Infinity, 0]
  run.forEach((w, i) => {
    at += w.length
    if (i < run.length - 1 && Math.abs(total / 2 - at) < best) [cut, best] = [i + 1, Math.abs(total / 2 - at)]
  })
  return [...halves(run.slice(0, cut)), ...halves(run.slice(cut))]
}

const PUNCT = /[,;!?()[\]{}"“”‘’<>|，。；：！？、（）《》—–]+/g

/**
 * Runs of content words between stop words and punctuation; code-like tokens are phrases of their
 * own, and a flag keeps the command before it (`git push --force`).
 */
function englishPhrases(text: string): Candidate[] {
  const out: Candidate[] = []
  let run: string[] = []
  const flush = () => {
    for (const piece of pieces(run)) out.push({text: piece.join(' '), words: piece.length, code: false, cjk: false})
    run = []
  }
  for (const raw of text.replace(PUNCT, ' | ').split(/\s+/)) {
    const ends = /[.:]$/.test(raw)
    const token = raw
      .replace(/^['*_]+|['*_.:]+$/g, '')
      .replace(/\(\)$/, '')
      .replace(/['’]s$/, '')
    const lower = token.toLowerCase()
    if (!token || STOP_EN.has(lower) || opaque(token)) flush()
    else if (isCode(token)) {
      // Two words before a flag are a command and its subcommand; one is as often a prose verb ("pass --x").
      if (token.startsWith('-') && run.length >= 2) {
        const command = [...run.slice(-2), token]
        out.push({text: command.join(' '), words: command.length, code: true, cjk: false})
      }
      flush()
      out.push({text: token, words: 1, code: true, cjk: false})
    } else if (/^[a-z](?:[a-z'’-]*[a-z])?$/i.test(token)) run.push(lower)
    else flush()
    if (ends) flush()
  }
  flush()
  return out
}

/**
 * A run as phrases of at most 3 words: a long run is cut at its generic words first ("matching
 * lock makes npm ci fail" gives "matching lock" and "npm ci fail"), then in threes, never
 * leaving a lone word at the end; a leading generic verb goes ("run git push" is "git push").
 */
function pieces(run: string[]): string[][] {
  if (run.length > MAX_EN_WORDS && run.some(w => GENERIC_EN.has(w))) {
    const parts: string[][] = [[]]
    for (const w of run) {
      if (GENERIC_EN.has(w)) parts.push([])
      else parts.at(-1)!.push(w)
    }
    return parts.filter(p => p.length).flatMap(pieces)
  }
  const from = run.length > 2 && GENERIC_EN.has(run[0]) ? 1 : 0
  const out: string[][] = []
  for (let i = from; i < run.length;) {
    const rest = run.length - i
    const size = rest <= MAX_EN_WORDS ? rest : rest === MAX_EN_WORDS + 1 ? 2 : MAX_EN_WORDS
    out.push(run.slice(i, i + size))
    i += size
  }
  return out
}

/** A key, hash or token: no one types it into a prompt, and a secret must not be copied into another field. */
function opaque(token: string): boolean {
  return (token.match(/[A-Za-z0-9+/=#_]{12,}/g) ?? []).some(
    run => /\d/.test(run) && (run.length >= 20 || (/[a-z]/.test(run) && /[A-Z]/.test(run))),
  )
}

/** `path.join`, `--force`, `deepMerge`, `package-lock.json`, `src/app`, `CRLF`, `utf8`, `snake_case`. */
function isCode(token: string): boolean {
  // A link is no phrase anyone types; "and/or" is two stop words, not a path.
  if (token.includes('://')) return false
  if (token.includes('/') && token.split('/').every(p => !p || STOP_EN.has(p.toLowerCase()))) return false
  return (
    /^--?[a-z0-9]/i.test(token) ||
    /^\.[a-z]/i.test(token) ||
    /^\$[a-z_]/i.test(token) ||
    /[a-z0-9][._/:@#=][a-z0-9]/i.test(token) ||
    /[a-z][A-Z]/.test(token) ||
    /^[A-Z]{3,}s?$/.test(token) ||
    (/\d/.test(token) && /[a-z]/i.test(token))
  )
}
