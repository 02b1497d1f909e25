import {canonical} from './state.js'
import type {BoardRequest} from './types.js'

const MAX_PATHS = 50

/**
 * Where a retry differs from the request first committed under the same batch id. `now` is
 * not part of the request: a retry may carry a new now and still be the same request.
 */
export function differingFields(original: BoardRequest, retry: BoardRequest): string[] {
  const out: string[] = []
  walk(canonical(original), canonical(retry), '', out)
  return out
}

function walk(a: unknown, b: unknown, at: string, out: string[]): void {
  if (out.length >= MAX_PATHS) return
  if (JSON.stringify(a) === JSON.stringify(b)) return
  const bothArrays = Array.isArray(a) && Array.isArray(b)
  const bothObjects = !bothArrays && isObject(a) && isObject(b)
  if (bothArrays) {
    const n = Math.max(a.length, b.length)
    for (let i = 0; i < n; i++) walk(a[i], b[i], `${at}[${i}]`, out)
  } else if (bothObjects) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
      walk(a[k], b[k], at ? `${at}.${k}` : k, out)
  } else out.push(at || '(request)')
}

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x)
