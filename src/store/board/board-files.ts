import type {Context} from '../../context.js'
import type {BoardSettings} from '../../domain/board/scale.js'
import type {BatchRecord} from '../../domain/board/types.js'
import type {Store} from '../layout.js'
import {
  assertNoGitOperation,
  batchCommits,
  batchesRel,
  batchIdOf,
  type BoardData,
  knownCommitted,
  legacyStateRel,
  loadBoard,
  looseRecords,
  markCommitted,
  type Reader,
  readRecord,
  readRecords,
  recordCommit,
  recordNames,
  recordRel,
  recordsFingerprint,
  writeCache,
} from './board.js'

/**
 * One store's board, as Stores.board hands it out: the batch records under board/batches/ (one committed
 * record per batch), the replay's cache in .cache/, and what git knows of the records. Paths are repo-relative.
 */
export interface BoardFiles {
  /** board/batches/, where the records are. */
  readonly batchesRel: string
  /** The snapshot the previous format committed (board/state.json); the migration removes it. */
  readonly legacyStateRel: string
  /** One record's file, by its key (file stem). */
  recordRel(key: string): string
  /** The batch id a record's key carries: everything before the last "-". */
  batchIdOf(key: string): string
  /** Record file names (with .json), sorted; a link on the way to board/batches/ is refused. */
  recordNames(): string[]
  /** The board replayed from its records, or read from the cache of that very replay. */
  load(settings: BoardSettings): BoardData
  /** The records themselves, both formats (legacy ones upgraded in memory); `read` reads a path (the disk by default). */
  readRecords(read?: Reader): {records: BatchRecord[]; legacy: boolean}
  /** One record by its key. */
  readRecord(key: string, read?: Reader): BatchRecord
  /** Names, sizes and modification times of the record files, as one string. */
  fingerprint(): string
  /** Caches a replay of the records with this fingerprint (derived: a failed write costs only the next replay). */
  writeCache(fingerprint: string, data: BoardData): void
  /** Whether this record set was seen all committed at this HEAD, so a read needs no git status. */
  knownCommitted(fingerprint: string | undefined): boolean
  markCommitted(fingerprint: string | undefined): void
  /** Record files git does not have yet (added), and committed ones edited since (changed). One git process. */
  looseRecords(): Promise<{added: string[]; changed: string[]}>
  /** The commit holding each batch's record, by batch id, from the Cairn-Batch trailers. */
  batchCommits(): Promise<Map<string, string>>
  /** The commit that added one record file. */
  recordCommit(key: string): Promise<string | null>
  /** Refuses (conflict) while a merge, rebase, cherry-pick or revert is in progress. */
  assertNoGitOperation(): void
}

export function openBoardFiles(ctx: Context, store: Store): BoardFiles {
  return {
    batchesRel: batchesRel(store),
    legacyStateRel: legacyStateRel(store),
    recordRel: key => recordRel(store, key),
    batchIdOf,
    recordNames: () => recordNames(store),
    load: settings => loadBoard(store, settings),
    readRecords: read => readRecords(store, read),
    readRecord: (key, read) => readRecord(store, key, read),
    fingerprint: () => recordsFingerprint(store),
    writeCache: (fingerprint, data) => writeCache(store, fingerprint, data),
    knownCommitted: fingerprint => knownCommitted(store, fingerprint),
    markCommitted: fingerprint => markCommitted(store, fingerprint),
    looseRecords: () => looseRecords(ctx, store),
    batchCommits: () => batchCommits(ctx, store),
    recordCommit: key => recordCommit(ctx, store, key),
    assertNoGitOperation: () => assertNoGitOperation(store),
  }
}
