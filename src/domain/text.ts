import {CairnError} from './errors.js'

const decoder = new TextDecoder('utf-8', {fatal: true})

/** Strict UTF-8 decoding: invalid bytes are bad input, never silently replaced. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    const text = decoder.decode(bytes)
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  } catch {
    const offset = firstInvalidOffset(bytes)
    throw new CairnError(
      'validation',
      `${file}: (content): is not valid UTF-8 (first bad byte at offset ${offset}). Fix: save the file as UTF-8`,
      {
        issues: [{file, field: '(content)', message: `invalid UTF-8 at byte ${offset}`, fix: 'save the file as UTF-8'}],
      },
    )
  }
}

function firstInvalidOffset(bytes: Uint8Array): number {
  let lo = 0
  let hi = bytes.length
  // Binary search on the longest valid prefix; a prefix may end mid-character, so allow 3 bytes of slack.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    try {
      new TextDecoder('utf-8', {fatal: true}).decode(bytes.subarray(0, mid), {stream: true})
      lo = mid
    } catch {
      hi = mid - 1
    }
  }
  if (lo < bytes.length) return lo
  // Every prefix decodes only when the input ends mid-character: report where that character starts.
  let start = lo - 1
  while (start > 0 && (bytes[start] & 0xc0) === 0x80) start--
  return start
}

/**
 * A phrase as recall compares it: NFKC, lowercase, runs of white space as one space, trimmed. The matcher
 * (recall/match normText) and cairn enrich (a repeated phrase) use this one.
 */
export const normText = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
