import fs from 'node:fs'
import path from 'node:path'
import {parseCard} from '../domain/card/format.js'
import {CairnError, validationError} from '../domain/errors.js'
import {assertTrailers, renderCommitMessage} from '../domain/trailers.js'
import type {Context} from './context.js'
import {assertCleanState, gitClient, gitDir, gitFailure} from './git.js'
import {abs, type Store} from './layout.js'
import {acquireLock} from './lock.js'
import {pruneEmptyDirs, readIfExists, writeFileAtomic} from './fsutil.js'

/** The single owner of writes: every cairn mutation is one change set, validated, then one commit. */

export interface TxMeta {
  op: string
  summary: string
  cards?: string[]
  batch?: string
  /** Card renames in this commit, as Cairn-Rename trailers, so `cairn log` can follow them. */
  renames?: [from: string, to: string][]
  /** Extra commit-message paragraph, e.g. a rejection reason. */
  body?: string
  /** false writes the files without committing (config commit.enabled: false or --no-commit). */
  commit?: boolean
  verify?: boolean
}

type Change = {kind: 'write'; path: string; content: string} | {kind: 'delete'; path: string} | {kind: 'move'; from: string; to: string}

/** Records intended changes (repo-relative POSIX paths); nothing touches the disk until commit. */
export class ChangeSet {
  readonly changes: Change[] = []
  private readonly view = new Map<string, string | null>()

  constructor(readonly store: Store) {}

  write(relPath: string, content: string): void {
    this.changes.push({kind: 'write', path: relPath, content})
    this.view.set(relPath, content)
  }

  remove(relPath: string): void {
    this.changes.push({kind: 'delete', path: relPath})
    this.view.set(relPath, null)
  }

  /** A move (git mv): content follows the file; a later write to `to` changes it. */
  move(from: string, to: string): void {
    if (this.exists(to)) throw new CairnError('conflict', `cannot move ${from} to ${to}: ${to} already exists`)
    const content = this.read(from)
    if (content === null) throw new CairnError('not_found', `cannot move ${from}: it does not exist`)
    this.changes.push({kind: 'move', from, to})
    this.view.set(from, null)
    this.view.set(to, content)
  }

  /** Content as it will be after the changes so far; null when absent. */
  read(relPath: string): string | null {
    if (this.view.has(relPath)) return this.view.get(relPath) ?? null
    const buf = readIfExists(abs(this.store, relPath))
    return buf === null ? null : buf.toString('utf8')
  }

  exists(relPath: string): boolean {
    return this.read(relPath) !== null
  }

  touched(): string[] {
    const set = new Set<string>()
    for (const c of this.changes) {
      if (c.kind === 'move') set.add(c.from).add(c.to)
      else set.add(c.path)
    }
    return [...set]
  }
}

export interface TxResult<T> {
  result: T
  commit: string | null
  paths: string[]
}

const CARD_PATH = /(?:^|\/)(?:pending|cards|archive\/[^/]+\/(?:pending|cards))\/([a-z]+)\/([^/]+)\.md$/

/** Every card file the change set writes must parse, and its id and type must match its path. */
function validateChanges(tx: ChangeSet): void {
  const problems = []
  for (const p of tx.touched()) {
    const content = tx.read(p)
    if (content === null) continue
    const m = CARD_PATH.exec(p.slice(tx.store.prefix.length))
    if (!m) continue
    const card = parseCard(content, p)
    if (card.id !== m[2]) problems.push({file: p, field: 'id', message: `id "${card.id}" does not match the file name`, fix: `rename the file to ${card.id}.md or set id: ${m[2]}`})
    if (card.type !== m[1]) problems.push({file: p, field: 'type', message: `type "${card.type}" does not match the directory "${m[1]}"`, fix: `move the file under ${card.type}/`})
  }
  if (problems.length) throw validationError(problems, 'The change would leave invalid cards')
}

export async function transaction<T>(
  ctx: Context,
  store: Store,
  meta: TxMeta,
  build: (tx: ChangeSet) => T | Promise<T>,
): Promise<TxResult<T>> {
  assertTrailers({...meta, actor: ctx.actor})
  assertCleanState(store.root)
  const lock = await acquireLock(store.root)
  try {
    assertCleanState(store.root)
    const tx = new ChangeSet(store)
    const result = await build(tx)
    validateChanges(tx)
    const paths = tx.touched()
    if (paths.length === 0) return {result, commit: null, paths}
    const commit = await apply(ctx, store, meta, tx)
    return {result, commit, paths}
  } finally {
    lock.release()
  }
}

async function apply(ctx: Context, store: Store, meta: TxMeta, tx: ChangeSet): Promise<string | null> {
  const paths = tx.touched()
  const originals = new Map(paths.map(p => [p, readIfExists(abs(store, p))]))
  const indexFile = path.join(gitDir(store.root), 'index')
  const indexBackup = readIfExists(indexFile)
  const git = gitClient(ctx, store.root)
  try {
    for (const c of tx.changes) {
      if (c.kind === 'write') writeFileAtomic(abs(store, c.path), c.content)
      else if (c.kind === 'delete') {
        fs.rmSync(abs(store, c.path), {force: true})
        pruneEmptyDirs(path.dirname(abs(store, c.path)), abs(store, store.prefix))
      } else {
        fs.mkdirSync(path.dirname(abs(store, c.to)), {recursive: true})
        fs.renameSync(abs(store, c.from), abs(store, c.to))
        pruneEmptyDirs(path.dirname(abs(store, c.from)), abs(store, store.prefix))
      }
    }
    await stage(git, store, paths)
    if (meta.commit === false) return null
    const staged = await stagedAmong(git, paths)
    if (staged.length === 0) return null
    // Message and paths go through files: as arguments, a large batch overflows the OS limits
    // (one argument may not exceed 128 KiB on Linux: spawn E2BIG at ~3,600 Cairn-Card trailers).
    const msgFile = path.join(gitDir(store.root), 'CAIRN_COMMIT_MSG')
    const pathsFile = path.join(gitDir(store.root), 'CAIRN_COMMIT_PATHS')
    try {
      fs.writeFileSync(msgFile, commitMessage(ctx, meta))
      fs.writeFileSync(pathsFile, staged.join('\0'))
      const args = ['commit', '--quiet', ...(meta.verify ? [] : ['--no-verify']), '-F', msgFile, `--pathspec-from-file=${pathsFile}`, '--pathspec-file-nul']
      await commitWithIdentity(ctx, store, args)
    } finally {
      fs.rmSync(msgFile, {force: true})
      fs.rmSync(pathsFile, {force: true})
    }
    return (await git.raw(['rev-parse', 'HEAD'])).trim()
  } catch (error) {
    rollback(store, originals, indexFile, indexBackup)
    throw error instanceof CairnError ? error : gitFailure(error, `committing "${meta.summary}"`)
  }
}

const CHUNK = 500

async function stage(git: ReturnType<typeof gitClient>, store: Store, paths: string[]): Promise<void> {
  const present = paths.filter(p => fs.existsSync(abs(store, p)))
  const gone = paths.filter(p => !fs.existsSync(abs(store, p)))
  for (let i = 0; i < present.length; i += CHUNK) await git.raw(['add', '--', ...present.slice(i, i + CHUNK)])
  for (let i = 0; i < gone.length; i += CHUNK) await git.raw(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...gone.slice(i, i + CHUNK)])
}

async function stagedAmong(git: ReturnType<typeof gitClient>, paths: string[]): Promise<string[]> {
  const wanted = new Set(paths)
  const out = await git.raw(['diff', '--cached', '--name-only', '--no-renames', '-z'])
  return out.split('\0').filter(p => wanted.has(p))
}

function commitMessage(ctx: Context, meta: TxMeta): string {
  return renderCommitMessage({...meta, actor: ctx.actor})
}

async function commitWithIdentity(ctx: Context, store: Store, args: string[]): Promise<void> {
  try {
    await gitClient(ctx, store.root).raw(args)
  } catch (error) {
    const msg = String((error as Error).message)
    if (!/tell me who you are|empty ident|unable to auto-detect email/i.test(msg)) throw error
    // No identity configured anywhere: commit as cairn rather than fail the user's write.
    const fallback = {GIT_AUTHOR_NAME: 'cairn', GIT_AUTHOR_EMAIL: 'cairn@localhost', GIT_COMMITTER_NAME: 'cairn', GIT_COMMITTER_EMAIL: 'cairn@localhost'}
    await gitClient({...ctx, env: {...ctx.env, ...fallback}}, store.root).raw(args)
  }
}

function rollback(store: Store, originals: Map<string, Buffer | null>, indexFile: string, indexBackup: Buffer | null): void {
  for (const [p, content] of originals) {
    const file = abs(store, p)
    if (content === null) {
      fs.rmSync(file, {force: true})
      pruneEmptyDirs(path.dirname(file), abs(store, store.prefix))
    } else writeFileAtomic(file, content)
  }
  if (indexBackup === null) fs.rmSync(indexFile, {force: true})
  else writeFileAtomic(indexFile, indexBackup)
}
