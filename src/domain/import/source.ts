import type {ImportNote} from '../messages/import.js'
import type {StoreLanguage} from '../messages/language.js'
import type {Card} from '../card/schema.js'
import {validationError, type Issue} from '../errors.js'
import {splitFrontmatter} from '../frontmatter.js'
import {atxHeading} from '../markdown-blocks.js'
import {FILLER_WORDS, SLUG_MAX, SLUG_MIN} from '../card/slug.js'
import {pinyin} from 'pinyin-pro'
import {parseYaml} from '../yaml.js'
import {givenType, inferType} from './infer-type.js'
import {firstStatement} from './statement.js'
import type {PlannedProposal} from './pipeline.js'

/** One source file, read: its repository-relative POSIX path and its text. */
export interface SourceFile {
  path: string
  text: string
}

/** What one kind makes of one piece of a source: the proposal's own fields, and where it came from. */
export interface ImportItem {
  /** Names the piece within its file ('' for a whole file); with the path, the idempotency key. */
  anchor: string
  /** 1-based line of the piece in its file. */
  line: number
  /** Words the slug is built from, after the file's own words. Empty: the file name and position speak. */
  slugWords: string[]
  /** Words that complete a slug too short from the file and the piece alone: its first sentence's. */
  slugFill?: string[]
  /** Proposal fields: type, title, summary, rule, load, scope, ... (never slug or provenance). */
  fields: Record<string, unknown>
  /** The repository path of the source that replaces this one (a superseded ADR); its card becomes superseded_by. */
  supersededBy?: string
  /** Text left out on purpose, and why (an introduction that gives no rule): reported by the import, never proposed. */
  leftOut?: string
  /** The anchor an older cairn gave the piece (a Chinese heading's position), so a re-import still finds its card. */
  formerAnchor?: string
  /** Said in the card's proposed reason, after where it came from (an ADR's status, an unresolved successor). */
  note?: ImportNote
  /** The slug the source fixes (an OME id is the card's identity): kept as is, never derived nor discriminated. */
  slug?: string
  /** A whole card the source holds (an OME record, its index in the file, a Markdown card's body), for card(). */
  record?: {data: unknown; index: number; body?: string}
}

/** What building a whole card needs beyond its source: the clock, the actor, the status, the known signal ids. */
export interface CardEnv {
  /** The store's knowledge_language: what the card's own headings and reason are written in. */
  language: StoreLanguage
  now: string
  actor: string
  status: 'pending' | 'active'
  signals: ReadonlySet<string>
}

/** One importer: where its sources live and how one source maps to proposals. Only this differs per kind. */
export interface ImportKind {
  kind: string
  /** Files or directories, relative to the repository root, read when no PATH is given. */
  defaults: readonly string[]
  /** File names read at any depth of the work tree when no PATH is given (never an ignored file). */
  nested?: readonly string[]
  /** File name endings this kind reads inside a directory. */
  extensions: readonly string[]
  /** Whether a file (repository-relative) is a source of this kind; false for what cairn itself exported. */
  accepts(path: string): boolean
  /** Maps one file; a malformed file throws a validation error naming it. */
  map(file: SourceFile): ImportItem[]
  /** Whether sources outside the repository are read too (an OME library lives anywhere). */
  outside?: boolean
  /**
   * For a kind whose sources are whole cards (OME): builds the card from its planned item, with warnings, instead
   * of proposing fields. A record that is not a valid card throws a validation error naming the file.
   */
  card?(planned: PlannedProposal, env: CardEnv): {card: Card; warnings: string[]}
  /** Whether an older cairn, which kept no source key, imported this card (the one the item's slug names). */
  importedBefore?(card: Card, item: ImportItem): boolean
}

const BEGIN = /^[ \t]*<!--\s*cairn:begin\b/
const END = /^[ \t]*<!--\s*cairn:end\b/

/** The text without cairn's managed block; its lines become blank, so line numbers still point into the file. */
export function withoutCairnBlock(text: string): string {
  let inside = false
  return text
    .split('\n')
    .map(line => {
      if (BEGIN.test(line)) inside = true
      const keep = !inside
      if (END.test(line)) inside = false
      return keep ? line : ''
    })
    .join('\n')
}

export interface Frontmatter {
  data: Record<string, unknown>
  body: string
  /** 1-based file line where the body starts. */
  bodyLine: number
}

/** YAML frontmatter (optional) and body; a frontmatter that is not a mapping is a validation error. */
export function readFrontmatter(file: SourceFile): Frontmatter {
  const parts = splitFrontmatter(file.text, file.path)
  if (!parts) return {data: {}, body: file.text, bodyLine: 1}
  const data = parseYaml(parts.yaml, file.path, parts.yamlStartLine - 1) ?? {}
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw fieldError(
      file.path,
      '(frontmatter)',
      'must be a YAML mapping',
      'write key: value lines between the --- fences',
    )
  }
  const bodyLine = file.text.slice(0, parts.bodyStart).split('\n').length
  return {data: data as Record<string, unknown>, body: parts.body, bodyLine}
}

/** A frontmatter field's problem, as an error naming the file, the field and the fix. */
export function fieldError(file: string, field: string, message: string, fix: string) {
  const issue: Issue = {file, field, message, fix}
  return validationError([issue])
}

// A string or a list of strings (comma-separated in one string, as Cursor writes globs). A comma inside braces or
// brackets is part of its glob (`.pipelines/**/*.{yml,yaml}` is one), as VS Code's splitGlobAware reads applyTo.
export function stringList(value: unknown, file: string, field: string): string[] {
  if (value === undefined || value === null || value === '') return []
  const items = typeof value === 'string' ? splitGlobs(value) : Array.isArray(value) ? value : undefined
  if (!items || items.some(x => typeof x !== 'string')) {
    throw fieldError(
      file,
      field,
      'must be a string or a list of strings',
      `write ${field}: "src/**/*.ts" or a YAML list`,
    )
  }
  return (items as string[]).map(x => x.trim().replace(/^\.\//, '')).filter(Boolean)
}

export interface Section {
  heading: string
  level: number
  /** 1-based line of the heading (of the file's first line for the text before any heading). */
  line: number
  /** The section's own text, up to the next heading of any level. */
  body: string
}

/** Markdown sections by ATX heading; fenced code is not searched for headings. */
export function sections(text: string, firstLine = 1): Section[] {
  const out: Section[] = [{heading: '', level: 0, line: firstLine, body: ''}]
  const lines: string[][] = [[]]
  let fence = false
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '')
    if (/^\s*(```|~~~)/.test(line)) fence = !fence
    const h = fence ? undefined : atxHeading(line)
    if (h) {
      out.push({heading: h.text.trim(), level: h.level, line: firstLine + i, body: ''})
      lines.push([])
    } else lines[lines.length - 1].push(line)
  })
  return out.map((s, i) => ({...s, body: lines[i].join('\n').trim()}))
}

// Words that only join others: a slug of them ends mid-phrase (agents-your-primary-responsibility-is).
const STOP = new Set([
  ...FILLER_WORDS,
  ...'and or of for to in on with at by as from into via is are was be it its this that your our how what why'.split(
    ' ',
  ),
  'md',
  'mdc',
  'instructions',
])

/** Lowercase ASCII words of a text (CJK and punctuation dropped), without filler. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(w => w.length > 0 && !STOP.has(w))
}

/** The number a file's name starts with (`0005-use-postgres.md`, `adr-005.md`: 5), as ADRs are numbered. */
export function fileNumber(file: string): number | undefined {
  const m = /^(?:adr[-_\s]?)?0*(\d+)(?:\D|$)/i.exec(file.split('/').pop() ?? file)
  return m ? Number(m[1]) : undefined
}

/** Chinese function words a slug leaves out, as it leaves out English filler. */
const ZH_STOP = new Set(['的', '与', '和', '及', '或', '在', '了', '是', '之', '对', '把', '被', '中'])
export const HAN = /\p{Script=Han}/u
const segmenter = new Intl.Segmenter('zh', {granularity: 'word'})

/**
 * The words of a heading or name for a slug, in order: Latin words as `words` gives them, and each Chinese word as its
 * pinyin without tones (测试规范 gives ceshi, guifan), so a Chinese heading makes a slug a reader can say.
 */
export function slugWords(text: string): string[] {
  if (!HAN.test(text)) return words(text)
  return [...segmenter.segment(text)].flatMap(({segment, isWordLike}) => {
    if (!isWordLike) return []
    if (!HAN.test(segment)) return words(segment)
    const zh = [...segment].filter(c => !ZH_STOP.has(c) || segment.length > 1).join('')
    return zh ? words(pinyin(zh, {toneType: 'none', type: 'array', nonZh: 'consecutive'}).join('')) : []
  })
}

const FILL_STOP = new Set(
  'from into onto by at as before after then always never every all any each must should shall not dont don use using make sure ensure please only can may will need are was were have has its this that these those when what which how you your our we they them'.split(
    ' ',
  ),
)

/** Words to complete a short slug: the heading's, the rule's first sentence's, then the rest of its opening. */
export const fillWords = (heading: string, body: string): string[] => [
  ...slugWords(heading),
  ...slugWords(firstStatement(body)),
  ...slugWords(body.slice(0, 400)),
]

/** Rule files whose name says nothing of their own: in a folder, the folder's name speaks first. */
const GENERIC_NAMES = /^(claude|agents|gemini)\.md$/i

/**
 * The words of a source file's name: `.github/instructions/py-style.instructions.md` gives py, style; a nested
 * `services/billing/AGENTS.md` gives billing, agents.
 */
export function fileWords(path: string): string[] {
  const parts = path.split('/')
  const name = parts.pop() ?? path
  const own = slugWords(name.replace(/(\.instructions)?\.(md|mdc|markdown)$/i, ''))
  const folder = GENERIC_NAMES.test(name) && parts.length ? slugWords(parts[parts.length - 1]) : []
  return [...folder, ...own]
}

/**
 * A valid slug (2–5 words, 20–40 characters, no filler) from the file's words and the piece's words; when they are
 * too short, the words of the piece's first sentence (`fill`) complete it. Only a piece with no words at all is
 * padded with the kind's words. It depends on the path, the heading and that sentence; a re-import keeps the slug
 * an earlier import gave, whatever the text says now.
 */
export function importSlug(file: string[], piece: string[], pad: string[], fill: string[] = []): string {
  const picked: string[] = []
  const fits = (w: string) => [...picked, w].join('-').length <= SLUG_MAX
  const add = (ws: string[], enough: () => boolean) => {
    // A word longer than a name can hold (a file named in one run of letters) is cut; one that does not fit after
    // the words before it gives way to the shorter words after it.
    for (const w of ws.map(x => x.slice(0, WORD_MAX))) {
      if (enough() || picked.length >= 5) return
      if (!picked.includes(w) && fits(w)) picked.push(w)
    }
  }
  const short = () => picked.length >= 2 && picked.join('-').length >= SLUG_MIN
  add([...file.slice(0, 2), ...piece], () => false)
  // A sentence's modal words (always, never, use) and one- or two-letter words (be, da) say nothing in a name.
  add(
    fill.filter(w => w.length > 2 && !FILL_STOP.has(w)),
    short,
  )
  add(file.slice(2), short)
  for (const w of pad) {
    if (short()) break
    if (picked.includes(w)) continue
    if (picked.length >= 5) picked.pop()
    if (fits(w)) picked.push(w)
  }
  return picked.join('-')
}

/** The longest word a slug takes whole: with the hyphen, a word of 30 leaves room for a second of at least 9. */
const WORD_MAX = 30

/**
 * The one card a whole file makes: its frontmatter's type when it names a card type, else the type its wording
 * says (inferType); its first H1 or H2 (else its name) as title, the given summary (else its first statement), its
 * body as the rule. Extra fields (load, paths) come from the kind's own frontmatter mapping.
 */
export function fileItem(
  file: SourceFile,
  fm: Frontmatter,
  summary: string | undefined,
  fields: Record<string, unknown>,
): ImportItem[] {
  const body = fm.body.trim()
  if (!body)
    throw fieldError(
      file.path,
      '(body)',
      'has no rule text',
      'write the rule below the frontmatter, or delete the file',
    )
  // The file's own title: its first H1, else its first H2 (outside code). A deeper heading names a part, not the file.
  // A heading names the file only when it is the file's one H1, or (without an H1) its one H2; one of several names a part.
  const all = sections(body)
  const only = (level: number) => {
    const at = all.filter(x => x.level === level)
    return at.length === 1 ? at[0] : undefined
  }
  const top = all.some(x => x.level === 1) ? only(1) : only(2)
  const heading = top?.heading.replace(/\s*#+\s*$/, '')
  const name = (file.path.split('/').pop() ?? file.path)
    .replace(/(\.instructions)?\.(md|mdc|markdown)$/i, '')
    .replace(/[-_]+/g, ' ')
    .replace(/^./, c => c.toUpperCase())
  return [
    {
      anchor: '',
      line: fm.bodyLine,
      // A name without words (an emoji) leaves the folders' words to speak.
      slugWords: fileWords(file.path).length
        ? fileWords(file.path)
        : slugWords(file.path.split('/').slice(0, -1).join(' ')),
      slugFill: fillWords(heading ?? '', body),
      fields: {
        type: givenType(fm.data) ?? inferType(heading ?? name, body),
        title: heading ?? name,
        summary: summary?.trim() || firstStatement(body) || (heading ?? name),
        rule: body,
        ...fields,
      },
    },
  ]
}

/** Globs as a narrow scope, or nothing when they cover every file (then the card is broad). */
/** A comma-separated list of globs, split at the commas outside braces and brackets. */
export function splitGlobs(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let bracket = false
  let current = ''
  for (const ch of text) {
    if (ch === ',' && depth === 0 && !bracket) {
      out.push(current)
      current = ''
      continue
    }
    if (ch === '{') depth++
    else if (ch === '}') depth = Math.max(0, depth - 1)
    else if (ch === '[') bracket = true
    else if (ch === ']') bracket = false
    current += ch
  }
  out.push(current)
  return out
}

// Where a tool applies a glob, as a pattern matched against repo-relative paths (picomatch):
// - `anywhere-without-slash` (Cursor): a pattern with no slash names files at any depth, as `.gitignore` does (`*.ts`
//   is `**/*.ts`); one with a slash is from the repository root.
// - `anywhere-unless-rooted` (Copilot, after VS Code's findInstructionFilesFor): every pattern that does not start
//   with `/` or `**/` matches at any depth (`src/**/*.js` is `**/src/**/*.js`); a leading `/` is the root.
// - `root` (Kiro): every pattern is from the repository root.
export type GlobRule = 'anywhere-without-slash' | 'anywhere-unless-rooted' | 'root'

export function toolGlobs(globs: readonly string[], rule: GlobRule): string[] {
  return globs.map(g => {
    if (rule === 'root' || g.startsWith('**/')) return g.replace(/^\/+/, '')
    if (rule === 'anywhere-unless-rooted') return g.startsWith('/') ? g.replace(/^\/+/, '') : `**/${g}`
    return g.includes('/') ? g.replace(/^\/+/, '') : `**/${g}`
  })
}

export function pathFields(globs: string[]): Record<string, unknown> {
  const narrow = globs.filter(g => !/^(\*\*|\*\*\/\*|\*)$/.test(g))
  return narrow.length ? {relevance_scope: 'narrow', relevance_paths: narrow} : {}
}

/** An optional string field of a frontmatter; any other value is reported with the file and the field. */
export function optionalString(data: Record<string, unknown>, field: string, file: string): string | undefined {
  const value = data[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string')
    throw fieldError(file, field, 'must be a string', `write ${field}: followed by plain text`)
  return value
}
