/**
 * The deepest nesting of lists and maps any structured input may have (YAML, JSON, MCP arguments). No cairn
 * file needs more than a few levels; the YAML library's composer, JSON.stringify, zod and rendering all recurse
 * once per level, so input nested tens of thousands of levels deep (120 KB of "[") would overflow the stack in
 * any of them, and a stack overflow inside a regular expression compile can take the whole process down.
 */
export const MAX_DEPTH = 64

interface Step {
  value: unknown
  depth: number
  key: string | number
  parent: Step | undefined
}

/**
 * The path (e.g. cards[0].keywords) to the first list or map of a JSON value that nests more than MAX_DEPTH
 * deep, the value itself counting as the first level; null when none does. Walked without recursion.
 */
export function tooDeepAt(value: unknown): string | null {
  const todo: Step[] = [{value, depth: 1, key: '', parent: undefined}]
  for (let step = todo.pop(); step; step = todo.pop()) {
    if (step.value === null || typeof step.value !== 'object') continue
    if (step.depth > MAX_DEPTH) return pathOf(step)
    const entries: [string | number, unknown][] = Array.isArray(step.value)
      ? step.value.map((v, i) => [i, v])
      : Object.entries(step.value)
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object')
        todo.push({value: child, depth: step.depth + 1, key, parent: step})
    }
  }
  return null
}

function pathOf(step: Step): string {
  const keys: (string | number)[] = []
  for (let s: Step | undefined = step; s?.parent; s = s.parent) keys.unshift(s.key)
  // The list indexes after the last field name only repeat it ([0][0][0]...): the field names the place.
  let end = keys.length
  while (end > 1 && typeof keys[end - 1] === 'number') end--
  const kept = keys.slice(0, end)
  return kept.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('') || '(root)'
}
