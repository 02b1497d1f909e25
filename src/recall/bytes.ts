/**
 * An append-only byte buffer for the index writer: text and integers go straight into chunks of
 * memory, so a large library's postings never become millions of short strings (and their GC), and
 * the whole is copied once, into the file's buffer, at the end.
 */
export class ByteSink {
  private chunks: Buffer[] = []
  private cur = Buffer.allocUnsafe(CHUNK)
  private at = 0
  /** Bytes written so far. */
  length = 0

  private room(n: number): void {
    if (this.at + n <= this.cur.length) return
    if (this.at > 0) this.chunks.push(this.cur.subarray(0, this.at))
    this.cur = Buffer.allocUnsafe(Math.max(CHUNK, n))
    this.at = 0
  }

  text(s: string): void {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    this.room(s.length * 3)
    const n = this.cur.write(s, this.at, 'utf8')
    this.at += n
    this.length += n
  }

  bytes(b: Uint8Array): void {
    this.room(b.length)
    this.cur.set(b, this.at)
    this.at += b.length
    this.length += b.length
  }

  byte(b: number): void {
    this.room(1)
    this.cur[this.at++] = b
    this.length++
  }

  /** An integer in decimal, as String(n) writes it. */
  int(n: number): void {
    if (!Number.isSafeInteger(n)) throw new Error(`recall index: ${n} is not an integer`)
    this.room(17)
    const buf = this.cur
    if (n < 0) {
      buf[this.at++] = MINUS
      this.length++
      n = -n
    }
    const digits =
      n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : n < 1_000_000 ? 6 : String(n).length
    for (let k = this.at + digits - 1; k >= this.at; k--) {
      const r = n % 10
      buf[k] = ZERO + r
      n = (n - r) / 10
    }
    this.at += digits
    this.length += digits
  }

  /**
   * A posting list: for each entry e in [from, to), the `width` integers from data[order[e]], all
   * joined by commas. Written in one pass over one reserved stretch of memory: a large library's
   * lists run to millions of integers.
   */
  list(data: Int32Array, order: Int32Array | null, from: number, to: number, width: number): void {
    // A comma, a sign and ten digits at most per integer.
    this.room((to - from) * width * 12)
    const buf = this.cur
    const begin = this.at
    let at = begin
    for (let e = from; e < to; e++) {
      const o = order ? order[e] : e * width
      for (let j = 0; j < width; j++) {
        if (at > begin) buf[at++] = COMMA
        let n = data[o + j]
        if (n < 0) {
          buf[at++] = MINUS
          n = -n
        }
        if (n < 10) {
          buf[at++] = ZERO + n
          continue
        }
        const digits =
          n < 100
            ? 2
            : n < 1000
              ? 3
              : n < 10_000
                ? 4
                : n < 100_000
                  ? 5
                  : n < 1_000_000
                    ? 6
                    : n < 10_000_000
                      ? 7
                      : n < 100_000_000
                        ? 8
                        : n < 1_000_000_000
                          ? 9
                          : 10
        for (let k = at + digits - 1; k >= at; k--) {
          const r = n % 10
          buf[k] = ZERO + r
          n = (n - r) / 10
        }
        at += digits
      }
    }
    this.length += at - begin
    this.at = at
  }

  /** The bytes written, as chunks (each call hands them over: the sink starts empty). */
  take(): Buffer[] {
    const out = this.chunks
    if (this.at > 0) out.push(this.cur.subarray(0, this.at))
    this.chunks = []
    this.cur = Buffer.allocUnsafe(0)
    this.at = 0
    this.length = 0
    return out
  }
}

const CHUNK = 1 << 20
const ZERO = 48
const MINUS = 45
const COMMA = 44

/**
 * Posting entries of one kind, `width` integers each, under term numbers, in one growing typed
 * array: no array per term and nothing for the GC to trace while a large library is folded in.
 */
export class Postings {
  data: Int32Array
  entries = 0

  constructor(readonly width: number) {
    this.data = new Int32Array(1024 * (width + 1))
  }

  /**
   * Room for n more entries: returns where the first starts in `data` (its term, then its `width` values).
   * When it must grow, it grows to `expect` entries if that is more: a writer that can foresee the
   * final count saves the copies (and fresh pages) of growing step by step.
   */
  append(n: number, expect = 0): number {
    const w = this.width + 1
    const need = (this.entries + n) * w
    if (need > this.data.length) {
      // Half again, not double: a large library's lists run to hundreds of megabytes.
      const grown = new Int32Array(Math.max(need, Math.ceil(this.data.length * 1.5), expect * w))
      grown.set(this.data)
      this.data = grown
    }
    const at = this.entries * w
    this.entries += n
    return at
  }

  /** Lets the entries go. */
  clear(): void {
    this.data = new Int32Array(0)
    this.entries = 0
  }

  /**
   * The entries by term, each term's in the order they came: term id's entries start at the
   * values offsets order[start[id]] .. order[start[id + 1] - 1].
   */
  group(terms: number): {start: Int32Array; order: Int32Array} {
    const w = this.width + 1
    const start = new Int32Array(terms + 1)
    for (let e = 0; e < this.entries; e++) start[this.data[e * w] + 1]++
    for (let t = 0; t < terms; t++) start[t + 1] += start[t]
    const next = start.slice(0, terms)
    const order = new Int32Array(this.entries)
    for (let e = 0; e < this.entries; e++) order[next[this.data[e * w]]++] = e * w + 1
    return {start, order}
  }
}
