import path from 'node:path'
import {CairnError, type Issue} from '../domain/errors.js'
import {IMPORT_KINDS} from '../domain/import/kinds.js'
import {type PlannedProposal, planProposals} from '../domain/import/pipeline.js'
import type {ImportItem} from '../domain/import/source.js'
import {parseProposals} from '../domain/propose.js'
import type {Context} from '../store/context.js'
import {fileExists, inputFiles, readInput} from '../store/input.js'
import {openStores} from '../store/stores.js'
import {propose, type Outcome} from './propose.js'

export interface ImportInput {
  kind: string
  /** A source file or directory; by default the kind's usual places at the repository root. */
  path?: string
  dryRun?: boolean
  noCommit?: boolean
}

export interface ImportedCard {
  id: string
  type: string
  title: string
  /** Repository-relative source path and line. */
  source: string
  line: number
  /** What happened, or with dryRun what would: created, or skipped because an earlier import made it. */
  outcome: Outcome | 'would-create' | 'skipped'
  path: string | null
}

export interface ImportResult {
  kind: string
  dryRun: boolean
  cards: ImportedCard[]
  /** Source files that could not be imported, each with what is wrong and how to fix it. */
  failed: {file: string; issues: Issue[]}[]
  commit: string | null
}

/**
 * `cairn import <kind>`: reads the kind's sources, maps each to proposals and proposes them as pending cards
 * in one commit. A piece imported before (same source path and anchor) is skipped; a malformed file is reported
 * in `failed` and the rest is imported.
 */
export async function importRules(ctx: Context, input: ImportInput): Promise<ImportResult> {
  const kind = IMPORT_KINDS[input.kind]
  if (!kind) {
    const known = [...Object.keys(IMPORT_KINDS), 'ome'].join(', ')
    throw new CairnError('usage', `unknown import kind "${input.kind}". Fix: use one of ${known}`)
  }
  const stores = openStores(ctx)
  const store = stores.requireProject()
  const rel = (file: string) => path.relative(store.root, path.resolve(ctx.cwd, file)).split(path.sep).join('/')
  const targets = input.path ? [input.path] : kind.defaults.map(d => path.join(store.root, d)).filter(fileExists)
  if (targets.length === 0) {
    throw new CairnError('not_found', `no ${kind.defaults.join(', ')} in ${store.root}. Fix: give PATH, the file or folder to import`)
  }
  const files = targets.flatMap(t => inputFiles(ctx, t, kind.extensions)).filter(f => kind.accepts(rel(f)))
  const failed: ImportResult['failed'] = []
  const mapped: {path: string; item: ImportItem}[] = []
  for (const [n, file] of files.entries()) {
    if (files.length > 1) ctx.progress(`reading ${n + 1}/${files.length}: ${rel(file)}`)
    const source = rel(file)
    if (source.startsWith('../')) {
      const issue = {file, field: '(path)', message: 'is outside the repository', fix: 'import files from inside the repository'}
      failed.push({file, issues: [issue]})
      continue
    }
    try {
      const {text} = await readInput(ctx, file)
      mapped.push(...kind.map({path: source, text}).map(item => ({path: source, item})))
    } catch (error) {
      failed.push({file: source, issues: issuesOf(error, source)})
    }
  }
  if (files.length > 1) ctx.progress('')
  const planned = valid(planProposals(kind.kind, mapped), failed)
  const known = new Set((await stores.loadAll(store, {archive: true})).cards.map(c => c.card.provenance.source_sessions[0]))
  const fresh = planned.filter(p => !known.has(p.key))
  const card = (p: PlannedProposal, outcome: ImportedCard['outcome'], at: string | null): ImportedCard => ({
    id: p.proposal.slug as string,
    type: p.proposal.type as string,
    title: p.proposal.title as string,
    source: p.source,
    line: p.line,
    outcome,
    path: at,
  })
  const skipped = planned.filter(p => known.has(p.key)).map(p => card(p, 'skipped', null))
  if (input.dryRun || fresh.length === 0) {
    const cards = [...fresh.map(p => card(p, 'would-create', null)), ...skipped]
    return {kind: kind.kind, dryRun: !!input.dryRun, cards, failed, commit: null}
  }
  const r = await propose(ctx, {records: {data: fresh.map(p => p.proposal), label: kind.kind}, noCommit: input.noCommit})
  const cards = fresh.map((p, i) => card(p, r.cards[i].outcome, r.cards[i].path))
  return {kind: kind.kind, dryRun: false, cards: [...cards, ...skipped], failed, commit: r.commit}
}

/** The planned proposals that are valid cards; a file with an invalid one is reported whole and left out. */
function valid(planned: PlannedProposal[], failed: ImportResult['failed']): PlannedProposal[] {
  const bad = new Set<string>()
  for (const p of planned) {
    try {
      parseProposals(p.proposal, `${p.source}:${p.line}`)
    } catch (error) {
      bad.add(p.source)
      failed.push({file: p.source, issues: issuesOf(error, `${p.source}:${p.line}`)})
    }
  }
  return planned.filter(p => !bad.has(p.source))
}

function issuesOf(error: unknown, file: string): Issue[] {
  if (!(error instanceof CairnError)) throw error
  const issues = (error.data as {issues?: Issue[]} | undefined)?.issues
  return issues?.length ? issues : [{file, field: '(file)', message: error.message}]
}
