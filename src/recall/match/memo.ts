/**
 * A function of a string worked out once per process, for an index build that meets the same
 * words and concept units in thousands of cards (a library shares its team's vocabulary).
 * The table is emptied when it reaches `size` entries, so a long-lived process never grows it past that.
 */
export function memo<T>(work: (key: string) => T, size = 100_000): (key: string) => T {
  const known = new Map<string, T>()
  return key => {
    let out = known.get(key)
    if (out === undefined) {
      if (known.size >= size) known.clear()
      known.set(key, (out = work(key)))
    }
    return out
  }
}
