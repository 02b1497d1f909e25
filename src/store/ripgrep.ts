import {spawn} from 'node:child_process'
import {rgPath} from '@vscode/ripgrep'
import {CairnError} from '../domain/errors.js'
import {isRealDir} from './safe-read.js'

/**
 * Metadata lines are not card text: every card has "status: active" or "level: global", so
 * counting them would make every card a candidate. Headings and the body's criteria labels
 * are template text too.
 */
const METADATA_LINE = new RegExp(
  '^\\s*(?:(?:schema|id|type|status|load|policy|risk|confidence|level|project_key|module_path|paths|language|links|protected|supersedes|superseded_by|' +
    'deferred_until|created|updated|approved|by|at|provenance|source_sessions|proposed_reason|session_context|recent_paths|user_messages_summary|' +
    'idempotency_key|engine_hints|positive|required_all|negative|recall|scope|criteria|aliases)\\s*:|#{1,6}\\s|(?:recall policy|risk|use when|ignore when|召回策略|风险级别|使用|不要使用)\\s*[:：])',
  'i',
)

const escape = (t: string): string => t.replace(/[\\^$.*+?()[\]{}|/#&~-]/g, '\\$&')

/** One pattern for ripgrep's fast engine: any term, Latin ones at a word start (terms may be stems). */
export function searchPattern(terms: readonly string[]): string {
  return terms.map(t => (/^[a-z0-9]/i.test(t) ? `\\b${escape(t)}` : escape(t))).join('|')
}

/** The arguments of the search; the benchmarks time the same command. */
export function searchArgs(dirs: readonly string[], terms: readonly string[]): string[] {
  // Each matching line comes back as "path NUL line", a long line as its first 160 characters:
  // enough to tell a metadata line from card text.
  return ['--ignore-case', '--null', '--no-heading', '--with-filename', '--no-line-number', '--no-messages', '--no-ignore', '--max-columns', '160', '--max-columns-preview', '--glob', '*.md', '-e', searchPattern(terms), '--', ...dirs]
}

/** Files among rg's matching lines that matched outside metadata lines. */
export function filesFromLines(output: string): string[] {
  const files = new Set<string>()
  for (const line of output.split('\n')) {
    const nul = line.indexOf('\0')
    if (nul < 0) continue
    const file = line.slice(0, nul)
    if (!files.has(file) && !METADATA_LINE.test(line.slice(nul + 1))) files.add(file)
  }
  return [...files].sort()
}

/**
 * Card files under dirs with any of the terms in their text (case-insensitive), found by the
 * ripgrep binary: it reads the working tree as it is, uncommitted edits included. Links are
 * never followed: rg skips them while walking (no --follow), and a root that is itself a link,
 * which rg would enter, is left out here.
 */
export function filesContaining(roots: readonly string[], terms: readonly string[]): Promise<string[]> {
  const dirs = roots.filter(isRealDir)
  if (dirs.length === 0 || terms.length === 0) return Promise.resolve([])
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, searchArgs(dirs, terms), {stdio: ['ignore', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', d => out.push(d))
    child.stderr.on('data', d => err.push(d))
    child.on('error', e => reject(new CairnError('internal', `ripgrep could not start (${rgPath}): ${e.message}`)))
    child.on('close', code => {
      // 0: matches, 1: no match; 2 with output means some paths were unreadable but others matched.
      const text = Buffer.concat(out).toString('utf8')
      if (code === 0 || code === 1 || (code === 2 && text)) resolve(filesFromLines(text))
      else reject(new CairnError('internal', `ripgrep failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`))
    })
  })
}
