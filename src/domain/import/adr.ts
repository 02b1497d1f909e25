import path from 'node:path'
import {fieldError, fileWords, type ImportKind, readFrontmatter, sections, type Section, slugWords} from './source.js'
import {firstStatement} from './statement.js'

const NOT_ADRS = /(^|\/)(readme|index|template|adr-template|\d+-adr-template|0000-template)\.md$/i

/** The words teams write for each status, in English and Chinese, as a status line starts. */
const STATUS_WORDS: readonly [status: string, words: RegExp][] = [
  ['superseded', /^(superseded|replaced|已被?取代|被取代|已被?替代|已替换)/],
  ['deprecated', /^(deprecated|obsolete|retired|已?废弃|已?弃用|过时)/],
  ['rejected', /^(rejected|declined|withdrawn|已?拒绝|已?否决|已撤回)/],
  [
    'accepted',
    /^(accepted|approved|adopted|agreed|decided|done|implemented|active|已?接受|已?采纳|已?通过|已?批准|已?生效|已?确认|已实施)/,
  ],
  [
    'proposed',
    /^(proposed|proposal|draft|open|under review|in review|pending|wip|提议|提案|草稿|草案|建议|待定|待评审|讨论中|评审中)/,
  ],
]

/** "superseded by ADR-0005" or "被 0005 取代": the successor as `<dir>/#5`, which the pipeline finds by number. */
function numberedSuccessor(dir: string, words: string): string | undefined {
  const m = /superseded by\s+(?:adr[-\s]?)?0*(\d+)|被\s*(?:adr[-\s]?)?0*(\d+)/i.exec(words)
  const n = m?.[1] ?? m?.[2]
  return n ? `${dir === '.' ? '' : `${dir}/`}#${n}` : undefined
}

const section = (all: Section[], ...names: RegExp[]): Section | undefined =>
  all.find(s => names.some(n => n.test(s.heading.trim())))

/**
 * The status and its text: MADR frontmatter, a "## Status" or "## 状态" section (Nygard), or a "* Status:" line
 * (MADR 2), English or Chinese colon.
 */
function statusOf(data: Record<string, unknown>, all: Section[], body: string): string {
  if (typeof data.status === 'string') return data.status
  const own = section(all, /^status$/i, /^状态$/)?.body
  if (own) return own
  return /^\s*[-*]?\s*(?:\*\*)?(?:status|状态)(?:\*\*)?\s*[:：]\s*(.+)$/im.exec(body)?.[1] ?? 'accepted'
}

/** A status as its words: a link or brackets around it ("[Accepted](…/pull/541)", "[Approved]") and emphasis go. */
function statusWords(status: string): string {
  return status
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[[\]*_`>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

/**
 * Architecture decision records, MADR or Nygard style: one decision card per ADR. Its title is the ADR's (without
 * its number), the decision its rule and summary, the context its problem. Superseded → superseded_by the card of
 * the ADR its status links to; other statuses are said in the card's proposed reason.
 */
export const adr: ImportKind = {
  kind: 'adr',
  defaults: ['docs/adr', 'doc/adr', 'docs/adrs', 'adr', 'docs/decisions', 'docs/architecture/decisions'],
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path) && !NOT_ADRS.test(path),
  map(file) {
    const fm = readFrontmatter(file)
    const all = sections(fm.body, fm.bodyLine)
    const h1 = all.find(s => s.level === 1)
    if (!h1) throw fieldError(file.path, '(title)', 'has no "# " title line', 'start the ADR with "# <the decision>"')
    const status = statusOf(fm.data, all, fm.body)
    const words = statusWords(status)
    const known = /\bsuperseded by\b|被.{0,20}取代/.test(words)
      ? 'superseded'
      : STATUS_WORDS.find(([, w]) => w.test(words))?.[0]
    // A status in words cairn does not know is no reason to leave the decision out: the reviewer reads the note.
    const word = known ?? `"${firstStatement(status)}" (not a status cairn knows; check it in review)`
    const link = /\]\(([^)\s]+\.md)(?:#[^)]*)?\)/.exec(status)?.[1]
    const here = path.posix.dirname(file.path)
    // A rejected decision was never taken: like a deprecated one, it is kept as a record and never recalled.
    const retired =
      word === 'superseded' || word === 'deprecated' ? word : word === 'rejected' ? 'deprecated' : undefined
    // The successor by its link, else by its number ("Superseded by ADR-0005", "被 0005 取代"), found among the ADRs
    // imported with this one.
    const successor =
      word !== 'superseded'
        ? undefined
        : link
          ? path.posix.normalize(path.posix.join(here, link))
          : numberedSuccessor(here, words)
    const decision =
      section(all, /^decision outcome$/i, /^decision$/i, /^(决策|决定|决策结果|结论)$/)?.body || h1.body || fm.body
    const context = section(all, /^context( and problem statement)?$/i, /^(背景|上下文|问题背景|背景与问题)$/)?.body
    const title = h1.heading.replace(/^(adr[-\s]?)?\d+[.:：)]?\s*[-:：]?\s*/i, '') || h1.heading
    return [
      {
        anchor: '',
        line: h1.line,
        slugWords: fileWords(file.path),
        slugFill: slugWords(title),
        supersededBy: successor,
        note: {kind: 'adr', status: word, successorMissing: word === 'superseded' && !successor},
        fields: {
          type: 'decision',
          ...(retired ? {status: retired} : {}),
          title,
          // A template's decision that is only a comment still names the decision: its title.
          summary: firstStatement(decision) || title,
          rule: decision,
          ...(context ? {problem: context} : {}),
        },
      },
    ]
  },
}
