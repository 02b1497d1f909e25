import type {BatchRecord} from './types.js'

/** A record with its place in the replayed order. */
export interface SequencedRecord {
  seq: number
  record: BatchRecord
}

export interface BatchMetric {
  seq: number
  batch_id: string
  actor: string
  now: string
  /** Declarations that allocate attention: every op except withdraw. */
  allocatable: number
  /** Of those, the ones giving a non-null share in this batch. */
  overrides: number
  /** overrides / allocatable; null ("not applicable") when there is nothing to allocate. */
  rate: number | null
}

export interface Metrics {
  batches: BatchMetric[]
  total: {batches: number; applicable: number; allocatable: number; overrides: number; rate: number | null}
}

/**
 * Share override rate per batch (seed 003): explicit non-null shares over allocatable
 * declarations. An override a patch inherits by omitting share is not this batch's choice,
 * and share: null cancels one; neither counts. It watches whether the default scale keeps
 * needing exceptions; lower is not automatically better.
 */
export function shareOverrideRate(records: SequencedRecord[]): Metrics {
  const batches: BatchMetric[] = []
  for (const {seq, record: r} of records) {
    if (r.request.kind !== 'commit') continue
    const allocating = r.request.declarations.filter(d => d.op !== 'withdraw')
    const overrides = allocating.filter(d => 'share' in d && d.share !== null && d.share !== undefined).length
    batches.push({
      seq,
      batch_id: r.request.batch_id,
      actor: r.request.actor,
      now: r.now,
      allocatable: allocating.length,
      overrides,
      rate: allocating.length ? round(overrides / allocating.length) : null,
    })
  }
  const applicable = batches.filter(b => b.rate !== null)
  const allocatable = applicable.reduce((n, b) => n + b.allocatable, 0)
  const overrides = applicable.reduce((n, b) => n + b.overrides, 0)
  return {
    batches,
    total: {
      batches: batches.length,
      applicable: applicable.length,
      allocatable,
      overrides,
      rate: allocatable ? round(overrides / allocatable) : null,
    },
  }
}

const round = (x: number): number => Math.round(x * 10000) / 10000
