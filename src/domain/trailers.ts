import {type Issue, validationError} from './errors.js'

/**
 * The cairn commit message and its Cairn-* trailers: the one place that writes them and reads
 * them back (`cairn log`, the board's batch commits). A trailer value is one line: a newline in
 * one would let the value forge further trailers, so every value is checked before anything is
 * written.
 */

export interface CommitMessage {
  op: string
  summary: string
  /** An extra paragraph between subject and trailers, e.g. a rejection reason. */
  body?: string
  cards?: readonly string[]
  renames?: readonly (readonly [from: string, to: string])[]
  batch?: string
  /** The source keys (`import:<path>#<anchor>`) of the cards a reject removes, so an import can tell them later. */
  sources?: readonly string[]
  actor: string
}

export interface Trailers {
  op?: string
  cards: string[]
  renames: [from: string, to: string][]
  batch?: string
  actor?: string
  format?: string
}

export interface ParsedMessage {
  subject: string
  /** Everything after the subject line, trailers included. */
  body: string
  trailers: Trailers
}

export const FORMAT_VERSION = '1'

// Line and paragraph separators count too: some readers break lines on them.
const CONTROL = /[\p{Cc}\u2028\u2029]/u
const WHITESPACE = /\s/u

const show = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)

/** Op, card ids, rename ends and batch ids are single tokens; the parser splits renames on whitespace. */
function tokenIssue(field: string, value: string): Issue | undefined {
  if (value === '') return {field, message: 'is empty', fix: 'give a non-empty id'}
  if (CONTROL.test(value) || WHITESPACE.test(value)) {
    return {
      field,
      message: `${show(value)} contains whitespace or a control character`,
      fix: 'use one word of printable characters',
    }
  }
  return undefined
}

/** Whether a value can be a Cairn-Source trailer: one trimmed line (a path's spaces are fine). */
export const isTrailerLine = (value: string): boolean => lineIssue('', value) === undefined

/** A source key may hold spaces (a path's), but is one line. */
function lineIssue(field: string, value: string): Issue | undefined {
  if (value.trim() === '') return {field, message: 'is empty', fix: 'give a non-empty value'}
  if (CONTROL.test(value) || value.trim() !== value)
    return {field, message: `${show(value)} is not one trimmed line`, fix: 'give one line of printable text'}
  return undefined
}

const ACTOR_FIX = 'set CAIRN_ACTOR (or git config user.name, or --actor) to one line of printable text'

function actorIssue(actor: string): Issue | undefined {
  const field = 'Cairn-Actor'
  if (actor.trim() === '') return {field, message: 'is empty', fix: ACTOR_FIX}
  if (CONTROL.test(actor))
    return {field, message: `${show(actor)} contains a newline or control character`, fix: ACTOR_FIX}
  if (actor.trim() !== actor) return {field, message: `${show(actor)} starts or ends with whitespace`, fix: ACTOR_FIX}
  return undefined
}

/** Every problem with the trailer values of a message; empty when it can be written. */
export function trailerIssues(m: Omit<CommitMessage, 'summary'>): Issue[] {
  const issues: (Issue | undefined)[] = [tokenIssue('Cairn-Op', m.op)]
  for (const id of m.cards ?? []) issues.push(tokenIssue('Cairn-Card', id))
  for (const [from, to] of m.renames ?? [])
    issues.push(tokenIssue('Cairn-Rename', from), tokenIssue('Cairn-Rename', to))
  if (m.batch !== undefined) issues.push(tokenIssue('Cairn-Batch', m.batch))
  for (const key of m.sources ?? []) issues.push(lineIssue('Cairn-Source', key))
  issues.push(actorIssue(m.actor))
  return issues.filter((i): i is Issue => i !== undefined)
}

/** Throws a validation error (exit 6) naming each bad trailer and its fix. */
export function assertTrailers(m: Omit<CommitMessage, 'summary'>): void {
  const issues = trailerIssues(m)
  if (issues.length) throw validationError(issues, 'The commit would carry invalid Cairn-* trailers')
}

/** Subject, optional body and trailers as paragraphs: the message `-m subject [-m body] -m trailers` gives. */
export function renderCommitMessage(m: CommitMessage): string {
  assertTrailers(m)
  const trailers = [`Cairn-Op: ${m.op}`]
  for (const id of m.cards ?? []) trailers.push(`Cairn-Card: ${id}`)
  for (const [from, to] of m.renames ?? []) trailers.push(`Cairn-Rename: ${from} -> ${to}`)
  if (m.batch !== undefined) trailers.push(`Cairn-Batch: ${m.batch}`)
  for (const key of m.sources ?? []) trailers.push(`Cairn-Source: ${key}`)
  trailers.push(`Cairn-Actor: ${m.actor}`, `Cairn-Format: ${FORMAT_VERSION}`)
  const subject = `cairn(${m.op}): ${m.summary}`.replace(/\s+/g, ' ')
  return `${[subject, ...(m.body ? [m.body] : []), trailers.join('\n')].join('\n\n')}\n`
}

/** Reads the Cairn-* trailers from the last paragraph of a commit message; undefined for other commits. */
export function parseTrailers(message: string): Trailers | undefined {
  const paragraphs = message.trim().split(/\n\s*\n/)
  const last = paragraphs[paragraphs.length - 1] ?? ''
  const t: Trailers = {cards: [], renames: []}
  for (const line of last.split('\n')) {
    const m = /^(Cairn-[A-Za-z]+):\s*(.*)$/.exec(line.trim())
    if (!m) continue
    const value = m[2].trim()
    switch (m[1]) {
      case 'Cairn-Op':
        t.op = value
        break
      case 'Cairn-Card':
        t.cards.push(value)
        break
      case 'Cairn-Rename': {
        const r = /^(\S+)\s*->\s*(\S+)$/.exec(value)
        if (r) t.renames.push([r[1], r[2]])
        break
      }
      case 'Cairn-Batch':
        t.batch = value
        break
      case 'Cairn-Actor':
        t.actor = value
        break
      case 'Cairn-Format':
        t.format = value
        break
    }
  }
  return t.format ? t : undefined
}

/** Subject, body and trailers of a cairn commit message; undefined for other commits. */
export function parseCommitMessage(message: string): ParsedMessage | undefined {
  const trailers = parseTrailers(message)
  if (!trailers) return undefined
  const [subject, ...rest] = message.trim().split('\n')
  return {subject, body: rest.join('\n').trim(), trailers}
}
