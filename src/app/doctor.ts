import {CairnError} from '../domain/errors.js'
import type {Context} from '../context.js'
import type {StoreFacts} from '../store/health.js'
import type {Store} from '../store/layout.js'
import {personalHome, rel, type Stores} from '../store/stores.js'
import {openStores} from './stores.js'
import {clientChecks} from './doctor-clients.js'
import {deriveMissing, triggerChecks} from './doctor-triggers.js'
import {evidenceChecks, recordEvidence} from './doctor-evidence.js'
import {lint} from './lint.js'

export type CheckStatus = 'ok' | 'warning' | 'error'

export interface Check {
  store: 'project' | 'personal'
  check: string
  status: CheckStatus
  detail: string
  fix?: string
}

export interface DoctorResult {
  healthy: boolean
  checks: Check[]
  /** With --fix: what was repaired. */
  fixed: string[]
}

/**
 * A store integrity report: repo state, config, ignore rules, line endings, locks, an
 * interrupted write, leftovers, cards; and whether Codex and Gemini CLI will run the hooks installed for them. With fix, it first repairs what is safe to repair.
 */
export async function doctor(ctx: Context, input: {fix?: boolean} = {}): Promise<DoctorResult> {
  const stores = openStores(ctx)
  const project = stores.requireProject()
  const targets = [project, ...(stores.personal ? [stores.personal] : [])]
  const fixed = input.fix ? await repair(stores, targets) : []
  const checks: Check[] = []
  for (const store of targets) checks.push(...checksOf(store, await stores.inspect(store)))
  if (!stores.personal)
    checks.push({
      store: 'personal',
      check: 'exists',
      status: 'ok',
      detail: `no personal store at ${personalHome(ctx)} (created on first use)`,
    })
  checks.push(...(await cardChecks(ctx)))
  checks.push(...(await triggerChecks(stores, targets)))
  checks.push(
    ...(await evidenceChecks(
      stores,
      targets.find(s => s.kind === 'project'),
    )),
  )
  checks.push(...(await clientChecks(ctx, stores, project.root)))
  return {healthy: checks.every(c => c.status !== 'error'), checks, fixed}
}

/**
 * The repairs that cannot lose anything: finish or roll back a journal, add .gitattributes, drop
 * temp files; then derive triggers for cards that have none (one transaction).
 */
async function repair(stores: Stores, targets: Store[]): Promise<string[]> {
  const done: string[] = []
  const clean: Store[] = []
  for (const store of targets) {
    const facts = await stores.inspect(store)
    if (!facts.repoStateError) clean.push(store)
    if (facts.journal) {
      const what = await stores.recover(store)
      if (what) done.push(what)
    }
    const removed = facts.leftovers.length ? await stores.removeLeftovers(store) : 0
    if (removed) done.push(`removed ${removed} temp file(s) an interrupted write left in the ${store.kind} store`)
    if (!facts.gitattributes && !facts.repoStateError) {
      const r = await stores.initialise(store)
      if (r.files.length)
        done.push(`added ${r.files.join(', ')}${r.commit ? ` (commit ${r.commit.slice(0, 12)})` : ''}`)
    }
  }
  done.push(...(await deriveMissing(stores, clean)))
  done.push(
    ...(await recordEvidence(
      stores,
      clean.find(s => s.kind === 'project'),
    )),
  )
  return done
}

function checksOf(store: Store, f: StoreFacts): Check[] {
  const out: Check[] = []
  const add = (check: string, status: CheckStatus, detail: string, fix?: string) =>
    out.push({store: store.kind, check, status, detail, fix})
  if (f.configError)
    add('config', 'error', f.configError, 'correct the field named above, or delete the key to use its default')
  else add('config', 'ok', `${rel(store, 'config.yaml')} is valid`)
  if (f.ignoreMissing.length)
    add(
      'gitignore',
      'error',
      `${rel(store, '.gitignore')} does not ignore ${f.ignoreMissing.join(', ')}`,
      `add ${f.ignoreMissing.join(' and ')} to it, so derived files are never committed`,
    )
  else add('gitignore', 'ok', 'derived and local files are ignored')
  if (f.gitattributes) add('gitattributes', 'ok', `${rel(store, '.gitattributes')} keeps cards LF on every checkout`)
  else
    add(
      'gitattributes',
      'warning',
      `${rel(store, '.gitattributes')} is missing: with core.autocrlf=true, cards are checked out with CRLF`,
      'run "cairn doctor --fix" (or "cairn init") to add it',
    )
  if (f.repoStateError) add('repo-state', 'warning', f.repoStateError)
  else add('repo-state', 'ok', 'no merge, rebase or cherry-pick in progress')
  if (!f.journal) add('journal', 'ok', 'no interrupted write')
  else if ('error' in f.journal) add('journal', 'error', f.journal.error)
  else
    add(
      'journal',
      'error',
      `a cairn ${f.journal.op} started at ${f.journal.started} was interrupted (${f.journal.file})`,
      'run "cairn doctor --fix", or any cairn write, to finish or roll it back',
    )
  if (f.indexLock)
    add(
      'index-lock',
      'warning',
      `${f.indexLock} exists: a git process is running, or one was killed`,
      `if no git process is running, remove it: rm ${JSON.stringify(f.indexLock)}`,
    )
  if (!f.lock) add('lock', 'ok', 'no lock held')
  else if (f.lock.holder) add('lock', 'warning', `a cairn process (pid ${f.lock.holder.pid}) holds ${f.lock.file}`)
  else add('lock', 'warning', `${f.lock.file} is stale (its process is gone); the next write removes it`)
  if (f.leftovers.length)
    add(
      'temp-files',
      'warning',
      `interrupted writes left ${f.leftovers.length} temp file(s): ${f.leftovers.slice(0, 3).join(', ')}`,
      'run "cairn doctor --fix"; they were never part of a commit',
    )
  else add('temp-files', 'ok', 'no interrupted writes')
  if ('error' in f.uncommitted) add('uncommitted', 'error', `git status failed: ${f.uncommitted.error.trim()}`)
  else if (f.uncommitted.length)
    add(
      'uncommitted',
      'warning',
      `${f.uncommitted.length} uncommitted change(s) in the store`,
      'commit them, or run the cairn command again without --no-commit',
    )
  else add('uncommitted', 'ok', 'the store matches HEAD')
  return out
}

async function cardChecks(ctx: Context): Promise<Check[]> {
  try {
    const result = await lint(ctx)
    const first = result.problems.find(p => p.severity === 'error') ?? result.problems[0]
    const detail = `${result.checked} card file(s), ${result.errors} error(s), ${result.warnings} warning(s)${first ? `; first: ${first.file}: ${first.field}: ${first.message}` : ''}`
    return [
      {
        store: 'project',
        check: 'cards',
        status: result.errors ? 'error' : result.warnings ? 'warning' : 'ok',
        detail,
        fix: result.problems.length ? 'run "cairn lint" for the full list' : undefined,
      },
    ]
  } catch (error) {
    if (error instanceof CairnError) return [{store: 'project', check: 'cards', status: 'error', detail: error.message}]
    throw error
  }
}
