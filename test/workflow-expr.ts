/**
 * The part of GitHub's expression language the cairn workflow templates use: property paths,
 * literals, == != && || !, parentheses, contains(), startsWith() and always(). Comparison and truthiness
 * follow GitHub's rules (strings compare case-insensitively; && and || yield an operand).
 */

export type Value = string | number | boolean | null | Value[] | {[key: string]: Value}
export type Contexts = Record<string, Value>

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(==|!=|&&|\|\||!|\(|\)|,|\.|\[|\])|([A-Za-z_][\w-]*))/y

function tokenize(src: string): string[] {
  const out: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < src.trimEnd().length) {
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(src)
    if (!m) throw new Error(`expression: cannot read "${src.slice(at)}" in ${src}`)
    if (m[1] !== undefined) out.push(`#${m[1]}`)
    else if (m[2] !== undefined) out.push(`'${m[2].replace(/''/g, "'")}`)
    else out.push(m[3] ?? m[4])
  }
  return out
}

export const truthy = (v: Value): boolean => !(v === null || v === false || v === 0 || v === '' || Number.isNaN(v))

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase()
  if (typeof a === typeof b) return a === b
  const num = (v: Value) =>
    v === null
      ? 0
      : typeof v === 'boolean'
        ? Number(v)
        : typeof v === 'string'
          ? v.trim() === ''
            ? 0
            : Number(v)
          : Number.NaN
  return num(a) === num(b)
}

const FUNCTIONS: Record<string, (...args: Value[]) => Value> = {
  contains: (hay, needle) =>
    Array.isArray(hay) ? hay.some(v => equal(v, needle)) : str(hay).toLowerCase().includes(str(needle).toLowerCase()),
  startsWith: (s, prefix) => str(s).toLowerCase().startsWith(str(prefix).toLowerCase()),
  // A status check: the runner lets a step that calls it run after a failed step (see runJob).
  always: () => true,
}

/** A value as GitHub writes it into a string. */
export function str(v: Value): string {
  if (v === null) return ''
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

export function evaluate(src: string, ctx: Contexts): Value {
  const tokens = tokenize(src)
  let i = 0
  const peek = () => tokens[i]
  const take = (want?: string) => {
    const t = tokens[i++]
    if (want !== undefined && t !== want) throw new Error(`expression: expected "${want}" at "${t}" in ${src}`)
    return t
  }
  const or = (): Value => {
    let v = and()
    while (peek() === '||') {
      take()
      const r = and()
      v = truthy(v) ? v : r
    }
    return v
  }
  const and = (): Value => {
    let v = cmp()
    while (peek() === '&&') {
      take()
      const r = cmp()
      v = truthy(v) ? r : v
    }
    return v
  }
  const cmp = (): Value => {
    let v = unary()
    while (peek() === '==' || peek() === '!=') {
      const op = take()
      const r = unary()
      v = op === '==' ? equal(v, r) : !equal(v, r)
    }
    return v
  }
  const unary = (): Value => (peek() === '!' ? (take(), !truthy(unary())) : primary())
  const primary = (): Value => {
    const t = take()
    if (t === undefined) throw new Error(`expression: unexpected end of ${src}`)
    if (t === '(') {
      const v = or()
      take(')')
      return v
    }
    if (t.startsWith('#')) return Number(t.slice(1))
    if (t.startsWith("'")) return t.slice(1)
    if (t === 'true' || t === 'false') return t === 'true'
    if (t === 'null') return null
    if (peek() === '(') {
      const fn = FUNCTIONS[t]
      if (!fn) throw new Error(`expression: the runner does not know ${t}() (in ${src})`)
      take('(')
      const args: Value[] = []
      while (peek() !== ')') {
        args.push(or())
        if (peek() === ',') take()
      }
      take(')')
      return fn(...args)
    }
    if (!(t in ctx)) throw new Error(`expression: unknown context "${t}" in ${src}`)
    let v: Value = ctx[t]
    while (peek() === '.' || peek() === '[') {
      const key =
        take() === '.'
          ? take()
          : (() => {
              const k = str(primary())
              take(']')
              return k
            })()
      v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v[key] ?? null) : null
    }
    return v
  }
  const v = or()
  if (i !== tokens.length) throw new Error(`expression: "${tokens.slice(i).join(' ')}" left over in ${src}`)
  return v
}

/** A string with each `${{ expr }}` replaced by its value. */
export function interpolate(text: string, ctx: Contexts): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => str(evaluate(expr, ctx)))
}

/** An `if:` value: an expression with or without `${{ }}`. */
export function condition(value: unknown, ctx: Contexts): boolean {
  if (value === undefined) return true
  if (typeof value === 'boolean') return value
  const text = String(value).trim()
  const m = /^\$\{\{([\s\S]*)\}\}$/.exec(text)
  return truthy(evaluate(m ? m[1] : text, ctx))
}
