import fs from 'node:fs'
import path from 'node:path'
import {CairnError} from '../domain/errors.js'
import {readConfig} from '../store/config.js'
import type {Context} from '../store/context.js'
import {assertCleanState, gitClient, gitDir} from '../store/git.js'
import {abs, existingPersonalStore, personalHome, projectStore, rel, type Store, storeDir} from '../store/layout.js'
import {LOCK_NAME, lockHolder} from '../store/lock.js'
import {TMP_MARK} from '../store/fsutil.js'
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
}

/** A store integrity report: repo state, config, ignore rules, locks, leftovers, cards. */
export async function doctor(ctx: Context): Promise<DoctorResult> {
  const checks: Check[] = []
  const project = projectStore(ctx)
  checks.push(...(await checkStore(ctx, project)))
  const personal = existingPersonalStore(ctx)
  if (personal) checks.push(...(await checkStore(ctx, personal)))
  else checks.push({store: 'personal', check: 'exists', status: 'ok', detail: `no personal store at ${personalHome(ctx)} (created on first use)`})
  checks.push(...(await cardChecks(ctx)))
  return {healthy: checks.every(c => c.status !== 'error'), checks}
}

async function checkStore(ctx: Context, store: Store): Promise<Check[]> {
  const out: Check[] = []
  const add = (check: string, status: CheckStatus, detail: string, fix?: string) => out.push({store: store.kind, check, status, detail, fix})
  try {
    readConfig(store)
    add('config', 'ok', `${rel(store, 'config.yaml')} is valid`)
  } catch (error) {
    add('config', 'error', (error as Error).message, 'correct the field named above, or delete the key to use its default')
  }
  const ignore = fs.existsSync(abs(store, rel(store, '.gitignore'))) ? fs.readFileSync(abs(store, rel(store, '.gitignore')), 'utf8') : ''
  const missing = ['.cache/', '.local/'].filter(p => !ignore.split('\n').map(l => l.trim()).includes(p))
  if (missing.length) add('gitignore', 'error', `${rel(store, '.gitignore')} does not ignore ${missing.join(', ')}`, `add ${missing.join(' and ')} to it, so derived files are never committed`)
  else add('gitignore', 'ok', 'derived and local files are ignored')
  try {
    assertCleanState(store.root)
    add('repo-state', 'ok', 'no merge, rebase or cherry-pick in progress')
  } catch (error) {
    add('repo-state', 'warning', (error as Error).message)
  }
  const lockFile = path.join(gitDir(store.root), LOCK_NAME)
  if (fs.existsSync(lockFile)) {
    const holder = lockHolder(lockFile)
    if (holder) add('lock', 'warning', `a cairn process (pid ${holder.pid}) holds ${lockFile}`)
    else add('lock', 'warning', `${lockFile} is stale (its process is gone); the next write removes it`)
  } else add('lock', 'ok', 'no lock held')
  const leftovers = findLeftovers(storeDir(store))
  if (leftovers.length) add('temp-files', 'warning', `interrupted writes left ${leftovers.length} temp file(s): ${leftovers.slice(0, 3).join(', ')}`, 'delete them; they were never part of a commit')
  else add('temp-files', 'ok', 'no interrupted writes')
  try {
    const status = await gitClient(ctx, store.root).raw(['status', '--porcelain', '--', store.prefix || '.'])
    const lines = status.split('\n').filter(Boolean)
    if (lines.length) add('uncommitted', 'warning', `${lines.length} uncommitted change(s) in the store`, 'commit them, or run the cairn command again without --no-commit')
    else add('uncommitted', 'ok', 'the store matches HEAD')
  } catch (error) {
    add('uncommitted', 'error', `git status failed: ${(error as Error).message.trim()}`)
  }
  return out
}

function findLeftovers(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(path.join(d, e.name))
      } else if (e.name.includes(TMP_MARK)) out.push(path.relative(dir, path.join(d, e.name)))
    }
  }
  if (fs.existsSync(dir)) walk(dir)
  return out
}

async function cardChecks(ctx: Context): Promise<Check[]> {
  try {
    const result = await lint(ctx)
    const first = result.problems.find(p => p.severity === 'error') ?? result.problems[0]
    const detail = `${result.checked} card file(s), ${result.errors} error(s), ${result.warnings} warning(s)${first ? `; first: ${first.file}: ${first.field}: ${first.message}` : ''}`
    return [{store: 'project', check: 'cards', status: result.errors ? 'error' : result.warnings ? 'warning' : 'ok', detail, fix: result.problems.length ? 'run "cairn lint" for the full list' : undefined}]
  } catch (error) {
    if (error instanceof CairnError) return [{store: 'project', check: 'cards', status: 'error', detail: error.message}]
    throw error
  }
}
