import path from 'node:path'
import {fieldError, fileWords, type ImportKind, readFrontmatter, sections, type Section} from './source.js'
import {firstStatement} from './statement.js'

const STATUSES = ['proposed', 'accepted', 'rejected', 'deprecated', 'superseded', 'draft'] as const
const NOT_ADRS = /(^|\/)(readme|index|template|adr-template|\d+-adr-template|0000-template)\.md$/i

const section = (all: Section[], ...names: RegExp[]): Section | undefined =>
  all.find(s => names.some(n => n.test(s.heading)))

/** The status and its text: MADR frontmatter, a "## Status" section (Nygard), or a "* Status:" line (MADR 2). */
function statusOf(data: Record<string, unknown>, all: Section[], body: string): string {
  if (typeof data.status === 'string') return data.status
  const own = section(all, /^status$/i)?.body
  if (own) return own
  return /^\s*[-*]?\s*status:\s*(.+)$/im.exec(body)?.[1] ?? 'accepted'
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
    const word = /\bsuperseded by\b/i.test(status)
      ? 'superseded'
      : STATUSES.find(s => status.toLowerCase().trimStart().startsWith(s))
    if (!word) {
      throw fieldError(
        file.path,
        'status',
        `"${firstStatement(status)}" is not an ADR status`,
        `use one of ${STATUSES.join(', ')}`,
      )
    }
    const link = /\]\(([^)\s]+\.md)(?:#[^)]*)?\)/.exec(status)?.[1]
    const here = path.posix.dirname(file.path)
    const successor = word === 'superseded' && link ? path.posix.normalize(path.posix.join(here, link)) : undefined
    const decision = section(all, /^decision outcome$/i, /^decision$/i)?.body || h1.body || fm.body
    const context = section(all, /^context( and problem statement)?$/i)?.body
    const title = h1.heading.replace(/^(adr[-\s]?)?\d+[.:)]?\s*[-:]?\s*/i, '') || h1.heading
    return [
      {
        anchor: '',
        line: h1.line,
        slugWords: fileWords(file.path),
        supersededBy: successor,
        note:
          word === 'superseded' && !successor ? 'ADR status: superseded (no linked successor)' : `ADR status: ${word}`,
        fields: {
          type: 'decision',
          title,
          summary: firstStatement(decision),
          rule: decision,
          ...(context ? {problem: context} : {}),
        },
      },
    ]
  },
}
