/** The board (seed 003, Fold): items weighted inside per-layer attention budgets. */

export type Weight = 1 | 2 | 3 | 4 | 5
export type ItemStatus = 'active' | 'withdrawn' | 'merged'

/** One item as the snapshot stores it. `share` is the explicit override; null means derived. */
export interface Item {
  id: string
  /** null: the root layer. */
  parent: string | null
  kind: string
  summary: string
  weight: Weight
  share: number | null
  reason: string | null
  due_at: string | null
  stale_at: string | null
  sources: string[]
  /** Budget of this item's child layer; null means the configured default. */
  budget: number | null
  status: ItemStatus
  merged_into: string | null
  merged_from: string[]
  created_at: string
  updated_at: string
  /** Moves only on business changes (content, structure, allocation, sources). */
  revision: number
}

export interface Acknowledgement {
  batch_id: string
  event_seq: number
  actor: string
  at: string
}

export interface Annotation {
  id: string
  item: string
  text: string
  /** Who wrote it: the annotate's actor (records before issue 34 say "user"). */
  actor: string
  /** saved: no acknowledgement received yet (not "unread"). */
  status: 'saved' | 'acknowledged'
  created_at: string
  batch_id: string
  event_seq: number
  /** The first acknowledgement; a repeated acknowledge never replaces it. */
  acknowledged_by: Acknowledgement | null
}

export interface BoardState {
  event_seq: number
  revision: number
  last_checked_at: string | null
  items: Map<string, Item>
  /** Ids of the children of every status, by parent (null: the root layer); kept with `items`. */
  kids: Map<string | null, Set<string>>
  annotations: Map<string, Annotation>
  /** Items two branches changed, each with every version, until a batch that saw them all resolves it. */
  conflicts: Map<string, Conflict>
  /** What a merge could not apply as committed: a batch id with two requests, a declaration refused on replay. */
  problems: ReplayProblem[]
}

/** One side's version of an item both branches changed: the item as that batch left it. */
export interface ConflictVersion {
  batch_id: string
  record: string
  actor: string
  now: string
  event_seq: number
  item: Item
}

export interface Conflict {
  item: string
  versions: ConflictVersion[]
}

export type ReplayProblem =
  | {code: 'batch_id_conflict'; batch_id: string; records: string[]; differing_fields: string[]}
  | {code: 'not_applied'; batch_id: string; record: string; path: string; error: string; message: string}

export type EventKind = 'changed' | 'acknowledged' | 'checked' | 'annotated'

export interface Changes {
  content: string[]
  structure: string[]
  allocation: string[]
  sources: string[]
}

export type ReceiptStatus = 'committed' | 'already_committed' | 'rejected' | 'batch_id_conflict'

export interface Receipt {
  status: ReceiptStatus
  batch_id: string | null
  event_seq: number | null
  event: EventKind | null
  revision: number
  actor: string
  now: string
  changes: Changes
  acknowledged: string[]
  already_acknowledged: string[]
  checked: boolean
  /** Only on annotate receipts: the annotation saved. */
  annotation?: Annotation
}

/** A located problem: `path` is the JSON path inside the request, e.g. declarations[2].weight. */
export interface BoardError {
  path: string
  code: string
  message: string
  data: Record<string, unknown> | null
}

/** The request as validated; what the record keeps and retries are compared on. */
export interface CommitRequest {
  kind: 'commit'
  batch_id: string
  actor: string
  declarations: Declaration[]
  acknowledges: string[]
}

export interface AnnotateRequest {
  kind: 'annotate'
  batch_id: string
  actor: string
  item: string
  text: string
}

export type BoardRequest = CommitRequest | AnnotateRequest

/** Optional patch fields: omitted keeps, null clears where the contract allows. */
export interface PatchFields {
  parent?: string | null
  summary?: string
  share?: number | null
  reason?: string | null
  due_at?: string | null
  stale_at?: string | null
  sources?: string[]
  budget?: number | null
  children?: string[]
}

export type Declaration =
  | ({op: 'new'; id: string; kind: string; weight: Weight; summary: string} & PatchFields)
  | ({op: 'supersedes'; id: string; kind: string; weight: Weight} & PatchFields)
  | ({op: 'children'; id: string; kind: string; weight: Weight; children: string[]} & PatchFields)
  | ({op: 'merges'; id: string; from: string[]; kind: string; weight: Weight; summary: string} & Omit<
      PatchFields,
      'children' | 'budget'
    >)
  | {op: 'withdraw'; id: string; reason?: string | null}

/** What a batch changes: full after-values, derived on replay (never committed). */
export interface Effects {
  items: Item[]
  annotations: Annotation[]
  board: {event_seq: number; revision: number; last_checked_at: string | null}
}

/**
 * One committed batch or annotation: board/batches/<batch_id>-<suffix>.json, holding the
 * request only. `clock` is one more than every record the writer saw, and `parents` names the
 * records no other record had built on (the heads), so the order of a merged history and which
 * batches ran side by side both follow from the records alone.
 */
export interface BatchRecord {
  schema: 'cairn/board-batch@2'
  /** The file's stem, `<batch_id>-<suffix>`: unique to this write. */
  key: string
  clock: number
  parents: string[]
  now: string
  request: BoardRequest
  /** Annotations only: the id the annotation was given when it was written. */
  annotation?: string
}

export const emptyChanges = (): Changes => ({content: [], structure: [], allocation: [], sources: []})

export function emptyState(): BoardState {
  return {
    event_seq: 0,
    revision: 0,
    last_checked_at: null,
    items: new Map(),
    kids: new Map(),
    annotations: new Map(),
    conflicts: new Map(),
    problems: [],
  }
}
