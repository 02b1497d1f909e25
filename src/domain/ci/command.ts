import {checkSlug} from '../card/slug.js'
import {codeSpan} from '../markdown.js'
import {textLines} from '../markdown-blocks.js'

/**
 * The `/cairn` commands a pull-request comment may hold. The body is untrusted: it is parsed
 * here and nowhere else, never reaches a shell, and anything quoted back is in a code span.
 */

export type CiCommand =
  | {kind: 'none'}
  | {kind: 'failed'; reason: string}
  | {kind: 'approve'; ids: string[]; all: boolean}
  | {kind: 'reject'; id: string; reason: string}
  | {kind: 'defer'; id: string; until: string}
  | {kind: 'verify'; ids: string[]}
  | {kind: 'archive'; ids: string[]}
  | {kind: 'modify'; id: string; sets: string[]}

/** Author associations GitHub gives people with write access to the repository. */
export const TRUSTED_ASSOCIATIONS = ['OWNER', 'MEMBER', 'COLLABORATOR']

export const APPROVE_LABEL = 'cairn:approve'

export const USAGE_LINES = [
  '`/cairn approve <id> [<id> ...]` or `/cairn approve all`',
  '`/cairn reject <id> <reason>`',
  '`/cairn defer <id> <YYYY-MM-DD>`',
  '`/cairn verify <id> [<id> ...]` (an active card is still true)',
  '`/cairn archive <id> [<id> ...]`',
  '`/cairn modify <id> <field>=<value> ...` (fields as `cairn review modify --set` takes them)',
]

const COMMAND_LINE = /^[ \t]*\/cairn(?:[ \t]+(.*))?$/

/**
 * Untrusted text to quote in a reply: a code span, where GitHub renders no link, image, HTML or mention
 * (backslash escapes cannot stop a bare URL or an @mention); one line, at most 60 characters.
 */
export function quote(text: string): string {
  return codeSpan([...text].length > 60 ? `${[...text].slice(0, 57).join('')}...` : text)
}

/**
 * A card id the comment names: it must pass the kebab-case rule (the one that makes it safe to
 * echo and to look up); the other slug rules are lint's business, so a card that breaks them can
 * still be rejected by comment.
 */
function idProblem(id: string): string | null {
  if (id.length <= 100 && checkSlug(id)?.rule !== 'kebab-case') return null
  return `${quote(id)} is not a card id (ids are kebab-case, e.g. deepmerge-array-replace-trap)`
}

/** A calendar date YYYY-MM-DD that exists (no 2026-02-30). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const d = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text
}

/**
 * The command of a comment body, or of the trigger label. The command is the first line that starts with
 * /cairn in the comment's own text: a line in a code block, a block quote, HTML, a code span or a link's hidden
 * parts is what someone showed or quoted, or what the rendered comment does not show, and is never run; nor is
 * anything after what may hide the rest of the comment (markdown-blocks.ts).
 */
export function parseCiCommand(input: {comment?: string; label?: string}): CiCommand {
  if (input.label !== undefined && input.label !== '') {
    return input.label === APPROVE_LABEL ? {kind: 'approve', ids: [], all: true} : {kind: 'none'}
  }
  const line = textLines(input.comment ?? '').find(l => COMMAND_LINE.test(l))
  if (line === undefined) return {kind: 'none'}
  const rest = (COMMAND_LINE.exec(line)![1] ?? '').trim()
  const [verb = '', ...args] = rest.split(/[ \t]+/).filter(Boolean)
  const fail = (reason: string): CiCommand => ({kind: 'failed', reason})
  if (verb === 'approve') {
    if (args.length === 0) return fail('`/cairn approve` needs the ids to approve, or `all`')
    if (args.includes('all'))
      return args.length === 1 ? {kind: 'approve', ids: [], all: true} : fail('give ids or `all`, not both')
    const bad = args.map(idProblem).find(p => p !== null)
    return bad ? fail(bad) : {kind: 'approve', ids: [...new Set(args)], all: false}
  }
  if (verb === 'reject') {
    const [id = ''] = args
    if (!id) return fail('`/cairn reject` needs the id and a reason')
    const bad = idProblem(id)
    if (bad) return fail(bad)
    const reason = rest.replace(/^reject[ \t]+\S+/, '').trim()
    return reason
      ? {kind: 'reject', id, reason}
      : fail('`/cairn reject` needs a reason after the id: it goes into the commit message')
  }
  if (verb === 'defer') {
    const [id = '', until = '', ...extra] = args
    if (!id || !until) return fail('`/cairn defer` needs the id and a date, YYYY-MM-DD')
    const bad = idProblem(id)
    if (bad) return fail(bad)
    if (!isDate(until) || extra.length)
      return fail(`${quote(args.slice(1).join(' '))} is not a date; give one date as YYYY-MM-DD`)
    return {kind: 'defer', id, until}
  }
  if (verb === 'verify' || verb === 'archive') {
    if (args.length === 0) return fail(`\`/cairn ${verb}\` needs the ids of the cards`)
    const bad = args.map(idProblem).find(p => p !== null)
    return bad ? fail(bad) : {kind: verb, ids: [...new Set(args)]}
  }
  if (verb === 'modify') return modifyCommand(args, fail)
  return fail(verb ? `${quote(verb)} is not a cairn command` : '`/cairn` needs a command')
}

/**
 * `/cairn modify <id> field=value ...`: a word without "=" continues the value before it, so a phrase list such as
 * `triggers=deep merge,stop hook` needs no quotes. Which fields and values are valid is modify's to say.
 */
function modifyCommand(args: string[], fail: (reason: string) => CiCommand): CiCommand {
  const [id = '', ...rest] = args
  if (!id || !rest.length) return fail('`/cairn modify` needs the id and at least one `field=value`')
  const bad = idProblem(id)
  if (bad) return fail(bad)
  const sets: string[] = []
  for (const word of rest) {
    if (word.includes('=') && /^[a-z_]+=/.test(word)) sets.push(word)
    else if (sets.length) sets[sets.length - 1] += ` ${word}`
    else return fail(`${quote(word)} is not \`field=value\``)
  }
  return {kind: 'modify', id, sets}
}
