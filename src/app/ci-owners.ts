import {
  cardOwners,
  type CardOwners,
  judge,
  ownersLine,
  ownersNotes,
  type TeamAnswer,
  teamsToAsk,
  type Verdict,
} from '../domain/ci/approvers.js'
import {CODEOWNERS_FILES, type CodeOwners, ownerKey, parseCodeOwners} from '../domain/ci/codeowners.js'
import {governingConfig} from '../domain/ci/settings.js'
import {CairnError, formatIssue, type Issue} from '../domain/errors.js'
import {codeSpan, inert} from '../domain/markdown.js'
import type {CardFile} from '../store/cards/cards.js'
import type {Stores} from '../store/stores.js'

/**
 * Whom a `/cairn` command (or the label) is obeyed from besides write access, as the base branch's
 * review.approvers says: every writer, or with `codeowners` only a card's code owners under the base branch's
 * CODEOWNERS (domain/ci/approvers.ts). The base governs both files, so a pull request cannot loosen either for itself.
 */

export interface Refused {
  owners: CardOwners
  verdict: Verdict
}

/** The cards, of those asked about, the actor may decide on (by id), and the others with who may. */
export interface OwnerCheck {
  allowed: string[]
  refused: Refused[]
}

export interface OwnerGate {
  check(files: readonly CardFile[]): Promise<OwnerCheck>
  /** "Nothing happened" for a command refused: who may `verb` each refused card. */
  refusal(verb: string, refused: readonly Refused[]): string
  /** The paragraph under a partial approve-all: the cards left, and who may approve each. */
  left(refused: readonly Refused[]): string
}

const EVERY_WRITER: OwnerGate = {
  check: async files => ({allowed: files.map(f => f.name), refused: []}),
  refusal: () => '',
  left: () => '',
}

/**
 * The gate of the base `base` (a ref) for `login`; a reply instead when the base's settings cannot say who may
 * decide (an invalid config.yaml, codeowners without a CODEOWNERS file GitHub would load).
 */
export async function ownerGate(stores: Stores, base: string, login: string): Promise<OwnerGate | {reply: string}> {
  const project = stores.requireProject()
  try {
    const config = (await stores.settingsAt(project, base)).find(f => f.kind === 'config')!
    if (governingConfig(config.text, config.file, base).review.approvers === 'writers') return EVERY_WRITER
    const found = await stores.codeOwnersAt(project, base)
    if (!found) {
      const where = CODEOWNERS_FILES.map(codeSpan).join(', ')
      return {
        reply:
          `Nothing happened: \`review.approvers\` is \`codeowners\` on ${codeSpan(base)}, but it has no CODEOWNERS ` +
          `file (${where}). Add one there, or set \`review.approvers: writers\`.`,
      }
    }
    const co = parseCodeOwners(found.text, found.file)
    return codeOwnersGate(stores, {co, files: await stores.filesAt(project, base), base, login})
  } catch (error) {
    if (!(error instanceof CairnError) || error.code !== 'validation') throw error
    const issues = (error.data as {issues?: Issue[]} | undefined)?.issues ?? []
    const why = issues.length ? issues.map(i => codeSpan(formatIssue(i))).join('; ') : codeSpan(error.message)
    return {reply: `Nothing happened: the base branch's settings cannot say who may decide: ${why}.`}
  }
}

interface Owned {
  co: CodeOwners
  /** The base tree's files. */
  files: string[]
  base: string
  login: string
}

function codeOwnersGate(stores: Stores, owned: Owned): OwnerGate {
  const {co, login} = owned
  const by = `${codeSpan(co.file)} on ${codeSpan(owned.base)}`
  const list = (refused: readonly Refused[]) => {
    const notes = ownersNotes(refused, co, login)
    return [...refused.map(r => ownersLine(r.owners, r.verdict)), ...(notes.length ? ['', ...notes] : [])].join('\n')
  }
  return {
    async check(files) {
      const project = stores.requireProject()
      const owners: CardOwners[] = []
      for (const f of files) {
        const {card} = await stores.load(f)
        const file = stores.cardPath(project, 'cards', card.type, card.id)
        // A core card reaches every session, and one that supersedes retires another card: whatever its paths, they
        // are the store's decisions, judged by who owns the card's own file (a `.cairn/` line).
        const paths = card.load === 'core' || card.supersedes.length ? [] : card.scope.paths
        owners.push(cardOwners({id: f.name, file, modulePath: card.scope.module_path, paths}, owned.files, co))
      }
      const teams = await teamAnswers(stores, teamsToAsk(owners, login), login)
      const verdicts = owners.map(o => ({owners: o, verdict: judge(o, login, teams)}))
      return {
        allowed: verdicts.filter(v => v.verdict.ok).map(v => v.owners.id),
        refused: verdicts.filter(v => !v.verdict.ok),
      }
    },
    refusal: (verb, refused) => {
      const unsure = refused.some(r => r.verdict.unsure.length)
      const not = unsure ? `cairn cannot tell that ${inert(login)} is` : `${inert(login)} is not`
      return (
        `Nothing happened: \`review.approvers\` is \`codeowners\`, so only a card's code owners (by ${by}) may ` +
        `${verb} it, and ${not} one of them for:\n${list(refused)}`
      )
    },
    left: refused => `Left for their code owners (\`review.approvers: codeowners\`, by ${by}):\n${list(refused)}`,
  }
}

/** Each team's answer for login, asked once per team. */
async function teamAnswers(
  stores: Stores,
  teams: {org: string; team: string}[],
  login: string,
): Promise<Map<string, TeamAnswer>> {
  const out = new Map<string, TeamAnswer>()
  if (!teams.length) return out
  const github = await stores.github()
  for (const t of teams) {
    out.set(ownerKey({kind: 'team', ...t}), await github.teamMembership(t.org, t.team, login))
  }
  return out
}
