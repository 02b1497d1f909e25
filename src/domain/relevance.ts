import path from 'node:path'

/**
 * Relevance-path derivation (seed 000, Phase 1.5): a pure function from edit paths to the
 * globs that gate a narrow card. collect → dedupe → blacklist → generalise → scope gate.
 */
export const ROOT_BLACKLIST = new Set([
  'README.md',
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'tsconfig.json',
  '.gitignore',
  'LICENSE',
  'CHANGELOG.md',
])
export const MAX_DEPTH = 2
export const MIN_GROUP = 2

export interface DeriveOptions {
  scope: 'narrow' | 'broad'
  /** Absolute paths under this root are made relative; paths outside it are dropped. */
  root?: string
}

export function normalizeEditPath(p: string, root?: string): string | undefined {
  let s = p.trim().replace(/\\/g, '/')
  if (!s) return undefined
  if (root && path.posix.isAbsolute(s)) {
    const rel = path.posix.relative(root.replace(/\\/g, '/'), s)
    if (rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel)) return undefined
    s = rel
  }
  s = path.posix.normalize(s).replace(/^(\.\/)+/, '')
  if (s === '.' || s.startsWith('../') || s === '..' || path.posix.isAbsolute(s)) return undefined
  return s
}

export function deriveRelevancePaths(editPaths: readonly string[], options: DeriveOptions): string[] {
  if (options.scope === 'broad') return []
  // Steps 1-2: collect and dedupe, keeping first-seen order.
  const unique = [...new Set(editPaths.map(p => normalizeEditPath(p, options.root)).filter((p): p is string => !!p))]
  // Step 3: drop repo-root single files that say nothing about a module.
  const kept = unique.filter(p => !(p.indexOf('/') === -1 && ROOT_BLACKLIST.has(p)))
  // Step 4: generalise. Deepest shared directory first; a member may sit at most MAX_DEPTH
  // levels below it, and a group needs MIN_GROUP members. Singletons stay literal.
  const groups: {prefix: string; members: string[]; first: number}[] = []
  let remaining = kept.map((p, i) => ({p, i, dir: path.posix.dirname(p)}))
  const prefixes = new Set<string>()
  for (const item of remaining)
    for (let up = 0; up <= MAX_DEPTH; up++) {
      const prefix = ancestor(item.dir, up)
      if (prefix) prefixes.add(prefix)
    }
  const byDepth = [...prefixes].sort((a, b) => b.split('/').length - a.split('/').length)
  for (const prefix of byDepth) {
    const members = remaining.filter(x => within(prefix, x.dir))
    if (members.length < MIN_GROUP) continue
    groups.push({prefix, members: members.map(x => x.p), first: Math.min(...members.map(x => x.i))})
    remaining = remaining.filter(x => !members.includes(x))
  }
  const out: {glob: string; first: number}[] = remaining.map(x => ({glob: x.p, first: x.i}))
  for (const g of groups) out.push({glob: globFor(g.prefix, g.members), first: g.first})
  return out.sort((a, b) => a.first - b.first).map(x => x.glob)
}

function within(prefix: string, dir: string): boolean {
  if (dir === prefix) return true
  if (!dir.startsWith(`${prefix}/`)) return false
  return dir.slice(prefix.length + 1).split('/').length <= MAX_DEPTH
}

function ancestor(dir: string, up: number): string | undefined {
  if (dir === '.' || dir === '') return undefined
  const parts = dir.split('/')
  if (parts.length - up < 1) return undefined
  return parts.slice(0, parts.length - up).join('/')
}

function globFor(prefix: string, members: string[]): string {
  const names = new Set(members.map(m => path.posix.basename(m)))
  if (names.size === 1) return `${prefix}/**/${[...names][0]}`
  const exts = new Set(members.map(m => path.posix.extname(m)))
  const ext = [...exts][0]
  if (exts.size === 1 && ext) return `${prefix}/**/*${ext}`
  return `${prefix}/**`
}
