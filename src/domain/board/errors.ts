import {CairnError} from '../errors.js'
import type {BoardError, Receipt} from './types.js'

export const boardError = (
  path: string,
  code: string,
  message: string,
  data: Record<string, unknown> | null = null,
): BoardError => ({path, code, message, data})

/** JSON path of a field: declarations[2].weight. */
export function jsonPath(parts: readonly PropertyKey[]): string {
  let out = ''
  for (const p of parts) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p)
  return out || '(root)'
}

/** Exit 6 with the rejected receipt and every located error (DESIGN: the receipts table). */
export function rejection(receipt: Receipt, errors: BoardError[]): CairnError {
  const lines = errors.map(e => `  - ${e.path}: ${e.message} [${e.code}]`)
  const what = receipt.batch_id ? `batch "${receipt.batch_id}"` : 'the batch'
  const message = `${what} rejected; nothing was saved: state, revision and events are unchanged. Fix: mend each error below, then commit the batch again:\n${lines.join('\n')}`
  return new CairnError('rejected', message, {receipt, errors})
}

/** Exit 5: the batch id was used by a different request; the original receipt tells what happened. */
export function conflict(batchId: string, originalReceipt: Receipt, differing: string[]): CairnError {
  const message = `Batch id "${batchId}" was already used by a different request that differs in ${differing.join(', ')}; it was not applied. Fix: check original_receipt and differing_fields with "cairn board history --batch ${batchId}"; do not change the id to get around it`
  return new CairnError('batch_id_conflict', message, {original_receipt: originalReceipt, differing_fields: differing})
}
