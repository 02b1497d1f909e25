import {inModule, literalHead} from '../card/scope-paths.js'
import {codeSpan} from '../markdown.js'
import {globMatcher} from '../stale.js'
import {type CodeOwners, folderOwners, type Owner, ownerKey, type Ownership, ownersOf, ownerText} from './codeowners.js'

/**
 * Who owns a card under CODEOWNERS, for review.approvers: codeowners (DESIGN: Team review). A narrow card is owned by
 * the owners of what its scope paths cover: the files of the base branch's tree its globs match (within its
 * module_path), or, for a glob that matches none there, its fixed part (the path itself, or a new file in the folder
 * before its first wildcard). A broad card, or one whose paths no line owns, is owned by the owners of its file under
 * .cairn/cards/, where it lives once approved. The one person who decides must be among the owners of each of those
 * paths; a card nobody owns is anyone's with write access, as GitHub has it.
 */

/** One set of owners, and the paths of the card they own: the person who decides must be one of them. */
export interface OwnerClaim {
  owners: Owner[]
  paths: string[]
}

export interface CardOwners {
  id: string
  /** Every claim must be met by the one person who decides; none: no code owner, anyone with write access may. */
  claims: OwnerClaim[]
  /** What decided: the card's scope paths, or its own file under .cairn/cards/. */
  by: 'paths' | 'card'
}

/** What cairn needs of a card to say who owns it. */
export interface CardScope {
  id: string
  /** Its file under .cairn/cards/ (repo-relative), where it lives once approved. */
  file: string
  modulePath: string | null
  paths: readonly string[]
}

/** Whether the person is an active member of a team; 'unknown' when the token could not tell. */
export type TeamAnswer = 'member' | 'not_member' | 'unknown'

export interface Verdict {
  ok: boolean
  /** The claims the person meets none of. */
  unmet: OwnerClaim[]
  /** Teams, of unmet claims, cairn could not check the person against. */
  unsure: string[]
}

export function cardOwners(card: CardScope, files: readonly string[], co: CodeOwners): CardOwners {
  const owned = new Map<string, OwnerClaim>()
  for (const [path, found] of covered(card, files, co)) {
    if (!found?.owners.length) continue
    const key = found.owners.map(ownerKey).sort().join(' ')
    const claim = owned.get(key)
    if (claim) claim.paths.push(path)
    else owned.set(key, {owners: found.owners, paths: [path]})
  }
  if (owned.size) return {id: card.id, claims: [...owned.values()], by: 'paths'}
  const own = ownersOf(co, card.file)
  return {id: card.id, claims: own?.owners.length ? [{owners: own.owners, paths: [card.file]}] : [], by: 'card'}
}

/** Each path the card's scope covers, with its ownership (null when no line matches it). */
function covered(card: CardScope, files: readonly string[], co: CodeOwners): Map<string, Ownership | null> {
  const out = new Map<string, Ownership | null>()
  for (const glob of card.paths) {
    const head = literalHead(glob)
    const match = globMatcher(glob)
    // The literal head rules most files out with a string compare, before the glob runs.
    const hits = files.filter(f => f.startsWith(head) && inModule(card.modulePath, f) && match(f))
    for (const f of hits) if (!out.has(f)) out.set(f, ownersOf(co, f))
    if (hits.length || out.has(head || '/')) continue
    if (head === glob) out.set(glob, ownersOf(co, glob))
    else out.set(head || '/', folderOwners(co, head))
  }
  return out
}

/** The teams, of the claims `login` does not meet by name, whose membership would decide. */
export function teamsToAsk(owners: readonly CardOwners[], login: string): {org: string; team: string}[] {
  const out = new Map<string, {org: string; team: string}>()
  for (const claim of owners.flatMap(o => o.claims)) {
    if (claim.owners.some(o => isLogin(o, login))) continue
    for (const o of claim.owners) if (o.kind === 'team') out.set(ownerKey(o), {org: o.org, team: o.team})
  }
  return [...out.values()]
}

/** Whether `login` may decide on the card: one of the owners of each claim, by name or as an active team member. */
export function judge(owners: CardOwners, login: string, teams: ReadonlyMap<string, TeamAnswer>): Verdict {
  const unmet: OwnerClaim[] = []
  const unsure = new Set<string>()
  for (const claim of owners.claims) {
    const answer = (o: Owner) => (o.kind === 'team' ? teams.get(ownerKey(o)) : undefined)
    if (claim.owners.some(o => isLogin(o, login) || answer(o) === 'member')) continue
    unmet.push(claim)
    for (const o of claim.owners) if (answer(o) === 'unknown') unsure.add(ownerText(o))
  }
  return {ok: unmet.length === 0, unmet, unsure: [...unsure]}
}

const isLogin = (o: Owner, login: string) => o.kind === 'user' && o.login.toLowerCase() === login.toLowerCase()

/** Paths a reply names per claim; the rest are counted. */
const SHOWN_PATHS = 3

/** A reply line: who may decide on the card, by its claims. Owners and paths are in code spans (no @mention pings). */
export function ownersLine(owners: CardOwners, verdict: Verdict): string {
  const claim = (c: OwnerClaim) => {
    const shown = c.paths.slice(0, SHOWN_PATHS).map(codeSpan).join(', ')
    const more = c.paths.length > SHOWN_PATHS ? ` and ${c.paths.length - SHOWN_PATHS} more` : ''
    return `one of ${c.owners.map(o => codeSpan(ownerText(o))).join(', ')} (owning ${shown}${more})`
  }
  const who =
    owners.claims.length === 1
      ? claim(owners.claims[0])
      : `one person who is ${owners.claims.map(claim).join(', and ')}`
  const unsure = verdict.unsure.length
    ? `; cairn could not check ${verdict.unsure.map(codeSpan).join(', ')} (see below)`
    : ''
  return `- ${codeSpan(owners.id)}: ${who}${unsure}.`
}

/** The notes under a list of cards refused: teams cairn could not check, owners named by email, lines skipped. */
export function ownersNotes(
  refused: readonly {owners: CardOwners; verdict: Verdict}[],
  co: CodeOwners,
  login: string,
): string[] {
  const notes: string[] = []
  const unsure = [...new Set(refused.flatMap(r => r.verdict.unsure))]
  if (unsure.length) {
    notes.push(
      `cairn could not tell whether ${codeSpan(login)} is in ${unsure.map(codeSpan).join(', ')}: the token it has ` +
        "cannot read that team (a workflow's own token cannot read an organisation's teams). Give the workflow a " +
        'token that can (organisation permission Members: read) as the `CAIRN_TEAMS_TOKEN` secret, or name the ' +
        'owners by login in CODEOWNERS.',
    )
  }
  if (refused.some(r => r.verdict.unmet.some(c => c.owners.some(o => o.kind === 'email')))) {
    notes.push(
      'An owner named by email address cannot decide by comment: cairn cannot tell which login it is. ' +
        'Name them by `@login` in CODEOWNERS.',
    )
  }
  if (co.skipped.length) {
    const lines = co.skipped.map(s => `${s.line} (${s.reason})`).join('; ')
    notes.push(`${codeSpan(co.file)} has lines GitHub skips, and so does cairn: line ${lines}.`)
  }
  return notes
}
