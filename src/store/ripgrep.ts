import {spawn} from 'node:child_process'
import {rgPath} from '@vscode/ripgrep'
import {CairnError} from '../domain/errors.js'

/**
 * Metadata keys whose values are not card text: every card has "status: active" or "level:
 * global", so matching those lines would make every card a candidate. Headings are skipped too.
 */
const METADATA_KEYS = 'schema|id|type|status|load|policy|risk|confidence|level|project_key|module_path|paths|language|links|protected|supersedes|superseded_by|deferred_until|created|updated|approved|by|at|provenance|source_sessions|proposed_reason|session_context|recent_paths|user_messages_summary|idempotency_key|engine_hints|positive|required_all|negative|recall|scope|criteria|aliases'

/** Labels of the body's criteria section, in both languages. */
const LABELS = 'recall policy|risk|use when|ignore when|召回策略|风险级别|使用|不要使用'

const escape = (t: string): string => t.replace(/[\\^$.*+?()[\]{}|\/#-]/g, '\\$&')

/** One PCRE2 pattern: any term (Latin ones at a word start, since terms may be stems) on a line that is not metadata. */
export function searchPattern(terms: readonly string[]): string {
  const alts = terms.map(t => (/^[a-z0-9]/i.test(t) ? `\\b${escape(t)}` : escape(t)))
  return `^(?!\\s*(?:${METADATA_KEYS})\\s*:)(?!#{1,6}\\s)(?!(?:${LABELS})\\s*[:：]).*?(?:${alts.join('|')})`
}

/**
 * Card files under dirs with any of the terms in their text (case-insensitive), found by the
 * ripgrep binary: it reads the working tree as it is, uncommitted edits included.
 */
export function filesContaining(dirs: readonly string[], terms: readonly string[]): Promise<string[]> {
  if (dirs.length === 0 || terms.length === 0) return Promise.resolve([])
  const args = ['--files-with-matches', '--pcre2', '--ignore-case', '--no-messages', '--no-ignore', '--glob', '*.md', '-e', searchPattern(terms), '--', ...dirs]
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, {stdio: ['ignore', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', d => out.push(d))
    child.stderr.on('data', d => err.push(d))
    child.on('error', e => reject(new CairnError('internal', `ripgrep could not start (${rgPath}): ${e.message}`)))
    child.on('close', code => {
      // 0: matches, 1: no match; 2 with output means some paths were unreadable but others matched.
      const files = Buffer.concat(out).toString('utf8').split('\n').filter(Boolean)
      if (code === 0 || code === 1 || (code === 2 && files.length)) resolve(files.sort())
      else reject(new CairnError('internal', `ripgrep failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`))
    })
  })
}
