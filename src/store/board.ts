import fs from 'node:fs'
import {applyEffects, parseRecord, parseState} from '../domain/board/state.js'
import {type BatchRecord, type BoardState, emptyState} from '../domain/board/types.js'
import type {Context} from './context.js'
import {gitClient} from './git.js'
import {cairnCommits} from './history.js'
import {abs, rel, type Store} from './layout.js'

/** board/state.json is the snapshot; board/batches/<seq>-<batch_id>.json the full record of each batch. */
export const stateRel = (s: Store): string => rel(s, 'board', 'state.json')
export const batchesRel = (s: Store): string => rel(s, 'board', 'batches')
export const recordRel = (s: Store, seq: number, batchId: string): string => rel(s, 'board', 'batches', `${String(seq).padStart(6, '0')}-${batchId}.json`)

export interface RecordFile {
  seq: number
  batch_id: string
  path: string
}

const RECORD_NAME = /^(\d+)-(.+)\.json$/

/** Every record file, by seq. Names carry seq and batch id, so finding a batch reads one file. */
export function listRecords(store: Store): RecordFile[] {
  let names: string[]
  try {
    names = fs.readdirSync(abs(store, batchesRel(store)))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const out: RecordFile[] = []
  for (const name of names) {
    const m = RECORD_NAME.exec(name)
    if (m) out.push({seq: Number(m[1]), batch_id: m[2], path: `${batchesRel(store)}/${name}`})
  }
  return out.sort((a, b) => a.seq - b.seq)
}

export type Reader = (relPath: string) => string | null

export const diskReader = (store: Store): Reader => p => {
  try {
    return fs.readFileSync(abs(store, p), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

export function readRecord(read: Reader, file: RecordFile): BatchRecord {
  const text = read(file.path)
  if (text === null) throw new Error(`${file.path} disappeared while reading the board`)
  return parseRecord(text, file.path)
}

export interface LoadedBoard {
  /** The state with every record applied, including records newer than the snapshot. */
  state: BoardState
  /** Records newer than the snapshot (a write interrupted between record and snapshot). */
  pending: BatchRecord[]
  records: RecordFile[]
}

/** Snapshot plus any newer records: the board as the records say it is. */
export function loadBoard(store: Store, read: Reader = diskReader(store)): LoadedBoard {
  const text = read(stateRel(store))
  let state = text === null ? emptyState() : parseState(text, stateRel(store))
  const records = listRecords(store)
  const pending: BatchRecord[] = []
  for (const file of records) {
    if (file.seq <= state.event_seq) continue
    const record = readRecord(read, file)
    pending.push(record)
    state = applyEffects(state, record.effects)
  }
  return {state, pending, records}
}

/**
 * True when the file is committed and unchanged (a crash after both writes leaves it
 * uncommitted). One git process: isomorphic-git's status reads the whole index and HEAD tree.
 */
export async function isCommitted(ctx: Context, store: Store, relPath: string): Promise<boolean> {
  try {
    return (await gitClient(ctx, store.root).raw(['status', '--porcelain', '--untracked-files=all', '--', relPath])).trim() === ''
  } catch {
    return false
  }
}

/**
 * The commit holding each batch record, from the Cairn-Batch trailers (newest first, so a
 * recovery commit that replayed a record wins). One git process over the whole log: walking
 * 5,000 commits with isomorphic-git takes 1.4 s, and a path-limited git log 1.7 s, against 0.1 s.
 */
export async function batchCommits(ctx: Context, store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const c of await cairnCommits(ctx, store, 'Cairn-Batch')) {
    const batch = c.trailers.batch
    if (batch && !out.has(batch)) out.set(batch, c.sha)
  }
  return out
}
