import {CairnError} from '../domain/errors.js'
import {DOCTOR_TEXT} from '../domain/messages/doctor.js'
import {speak, type StoreLanguage} from '../domain/messages/language.js'
import type {Context} from '../context.js'
import type {StoreFacts} from '../store/health.js'
import type {Store} from '../store/layout.js'
import {personalHome, rel, type Stores, type WritableStore} from '../store/stores.js'
import {openStores, storeLanguage} from './stores.js'
import {clientChecks} from './doctor-clients.js'
import {deriveMissing, triggerChecks} from './doctor-triggers.js'
import {evidenceChecks, recordEvidence} from './doctor-evidence.js'
import {orgChecks, repairOrg} from './doctor-org.js'
import {lint} from './lint.js'

export type CheckStatus = 'ok' | 'warning' | 'error'

export interface Check {
  /** The store checked: the project's, the personal one, or an org layer ("org:<name>"). */
  store: 'project' | 'personal' | `org:${string}`
  check: string
  status: CheckStatus
  detail: string
  fix?: string
}

export type DoctorText = (typeof DOCTOR_TEXT)['en']

export interface DoctorResult {
  /** The project store's knowledge_language, which the report speaks. */
  language: StoreLanguage
  healthy: boolean
  checks: Check[]
  /** With --fix: what was repaired. */
  fixed: string[]
}

/**
 * A store integrity report: repo state, config, ignore rules, line endings, locks, an
 * interrupted write, leftovers, cards; whether Codex and Gemini CLI will run the hooks installed for them; and each
 * org layer's cache, remote and pin. With fix, it first repairs what is safe to repair.
 */
export async function doctor(ctx: Context, input: {fix?: boolean} = {}): Promise<DoctorResult> {
  const stores = openStores(ctx)
  const project = stores.requireProject()
  const targets = [project, ...(stores.personal ? [stores.personal] : [])]
  const language = await storeLanguage(stores, [project])
  const t = speak(DOCTOR_TEXT, language)
  const fixed = input.fix ? await repair(stores, targets, t) : []
  const checks: Check[] = []
  for (const store of targets) checks.push(...checksOf(store, await stores.inspect(store), t))
  if (!stores.personal)
    checks.push({store: 'personal', check: 'exists', status: 'ok', detail: t.noPersonal(personalHome(ctx))})
  checks.push(...(await cardChecks(ctx, t)))
  checks.push(...(await triggerChecks(stores, targets, t)))
  checks.push(...(await evidenceChecks(stores, project, t)))
  checks.push(...(await clientChecks(ctx, stores, project.root, t)))
  checks.push(...(await orgChecks(stores, t)))
  return {language, healthy: checks.every(c => c.status !== 'error'), checks, fixed}
}

/**
 * The repairs that cannot lose anything: finish or roll back a journal, add .gitattributes, drop
 * temp files; then derive triggers for cards that have none (one transaction).
 */
async function repair(stores: Stores, targets: WritableStore[], t: DoctorText): Promise<string[]> {
  const done: string[] = []
  const clean: WritableStore[] = []
  for (const store of targets) {
    const facts = await stores.inspect(store)
    if (!facts.repoStateError) clean.push(store)
    if (facts.journal) {
      const what = await stores.recover(store)
      if (what) done.push(what)
    }
    const removed = facts.leftovers.length ? await stores.removeLeftovers(store) : 0
    if (removed) done.push(t.removedTemp(removed, store.kind))
    if (!facts.gitattributes && !facts.repoStateError) {
      const r = await stores.initialise(store)
      if (r.files.length) done.push(t.added(r.files.join(', '), r.commit ? r.commit.slice(0, 12) : null))
    }
  }
  done.push(...(await deriveMissing(stores, clean, t)))
  done.push(
    ...(await recordEvidence(
      stores,
      clean.find(s => s.kind === 'project'),
      t,
    )),
  )
  done.push(...(await repairOrg(stores, t)))
  return done
}

function checksOf(store: WritableStore, f: StoreFacts, t: DoctorText): Check[] {
  const out: Check[] = []
  const add = (check: string, status: CheckStatus, detail: string, fix?: string) =>
    out.push({store: store.kind, check, status, detail, fix})
  if (f.configError) add('config', 'error', f.configError, t.configFix)
  else add('config', 'ok', t.configOk(rel(store, 'config.yaml')))
  if (f.ignoreMissing.length)
    add('gitignore', 'error', t.ignoreMissing(rel(store, '.gitignore'), f.ignoreMissing), t.ignoreFix(f.ignoreMissing))
  else add('gitignore', 'ok', t.ignoreOk)
  if (f.gitattributes) add('gitattributes', 'ok', t.attributesOk(rel(store, '.gitattributes')))
  else add('gitattributes', 'warning', t.attributesMissing(rel(store, '.gitattributes')), t.attributesFix)
  if (f.repoStateError) add('repo-state', 'warning', f.repoStateError)
  else add('repo-state', 'ok', t.repoStateOk)
  if (!f.journal) add('journal', 'ok', t.journalOk)
  else if ('error' in f.journal) add('journal', 'error', f.journal.error)
  else add('journal', 'error', t.journal(f.journal.op, f.journal.started, f.journal.file), t.journalFix)
  if (f.indexLock) add('index-lock', 'warning', t.indexLock(f.indexLock), t.indexLockFix(JSON.stringify(f.indexLock)))
  if (!f.lock) add('lock', 'ok', t.lockOk)
  else if (f.lock.holder) add('lock', 'warning', t.lockHeld(f.lock.holder.pid, f.lock.file))
  else add('lock', 'warning', t.lockStale(f.lock.file))
  if (f.leftovers.length)
    add('temp-files', 'warning', t.leftovers(f.leftovers.length, f.leftovers.slice(0, 3).join(', ')), t.leftoversFix)
  else add('temp-files', 'ok', t.leftoversOk)
  if ('error' in f.uncommitted) add('uncommitted', 'error', t.statusFailed(f.uncommitted.error.trim()))
  else if (f.uncommitted.length) add('uncommitted', 'warning', t.uncommitted(f.uncommitted.length), t.uncommittedFix)
  else add('uncommitted', 'ok', t.uncommittedOk)
  return out
}

async function cardChecks(ctx: Context, t: DoctorText): Promise<Check[]> {
  try {
    const result = await lint(ctx)
    const first = result.problems.find(p => p.severity === 'error') ?? result.problems[0]
    const detail =
      t.cards(result.checked, result.errors, result.warnings) +
      (first ? t.cardsFirst(first.file, first.field, first.message) : '')
    return [
      {
        store: 'project',
        check: 'cards',
        status: result.errors ? 'error' : result.warnings ? 'warning' : 'ok',
        detail,
        fix: result.problems.length ? t.cardsFix : undefined,
      },
    ]
  } catch (error) {
    if (error instanceof CairnError) return [{store: 'project', check: 'cards', status: 'error', detail: error.message}]
    throw error
  }
}
