import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers.js'

/**
 * Imports go downward only (DESIGN: Code layout and conventions). The agent adapters sit above
 * app/ (issue 9): a hook is a front end like the CLI, so src/agents/ calls app use cases, and
 * app/ never knows a client's wire format.
 */
const ALLOWED: Record<string, string[]> = {
  commands: ['cli', 'app', 'agents', 'mcp', 'domain'],
  mcp: ['app', 'domain'],
  cli: ['app', 'domain', 'recall'],
  app: ['domain', 'recall', 'store'],
  agents: ['app', 'domain', 'store'],
  // The index is built on the store's primitives; store/ reaches only the pure matcher (recallDoors).
  recall: ['domain', 'store'],
  store: ['domain', 'recall'],
  domain: [],
  // The ambient Context (src/context.ts) is every floor's, and imports nothing of cairn's.
  'context.ts': [],
}
const EVERY_FLOOR = ['context.js']

function sources(dir: string): string[] {
  return fs.readdirSync(dir, {withFileTypes: true}).flatMap(e => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : []
  })
}

export function violations(srcDir: string): string[] {
  const out: string[] = []
  for (const file of sources(srcDir)) {
    const layer = path.relative(srcDir, file).split(path.sep)[0]
    const text = fs.readFileSync(file, 'utf8')
    for (const m of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]
      const target = path.relative(srcDir, path.resolve(path.dirname(file), spec)).split(path.sep)[0]
      if (target === layer || EVERY_FLOOR.includes(target)) continue
      if (!(ALLOWED[layer] ?? []).includes(target))
        out.push(`${path.relative(srcDir, file)} imports ${spec} (${layer} → ${target})`)
    }
  }
  return out
}

/**
 * zod, yaml and secretlint are imported from src/domain/vendor/, which the build bundles (scripts/bundle-vendor.mjs):
 * a module importing the package itself would load its hundred files again, and a second copy of zod. The MCP
 * server keeps zod's own, the one its SDK reads schemas with.
 */
export function vendorBypasses(srcDir: string): string[] {
  const out: string[] = []
  for (const file of sources(srcDir)) {
    const rel = path.relative(srcDir, file).split(path.sep).join('/')
    if (rel.startsWith('domain/vendor/')) continue
    const text = fs.readFileSync(file, 'utf8')
    for (const m of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]
      if (spec === 'zod' && rel.startsWith('mcp/')) continue
      if (/^(zod|yaml)(\/|$)|^@secretlint\/(core|profiler|secretlint-rule-preset-recommend)$/.test(spec))
        out.push(`${rel} imports ${spec}`)
    }
  }
  return out
}

/** store/ is the only door to disk and git: src/app/ reaches neither itself. */
const APP_FORBIDDEN: [RegExp, string][] = [
  [/^(node:)?fs(\/promises)?$/, 'the file system'],
  [/^(node:)?child_process$/, 'processes'],
  [/^(simple-git|isomorphic-git)$/, 'git'],
  [/\/store\/git\.js$/, 'git'],
]

export function appDoors(srcDir: string): string[] {
  const out: string[] = []
  for (const file of sources(path.join(srcDir, 'app'))) {
    const text = fs.readFileSync(file, 'utf8')
    for (const m of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]
      for (const [re, what] of APP_FORBIDDEN)
        if (re.test(spec)) out.push(`${path.relative(srcDir, file)} imports ${spec} (${what})`)
    }
  }
  return out
}

/**
 * src/recall/ is one module behind one door (src/recall/README.md): outside it, only recall/index.ts is
 * imported, except that store/ may use the pure matcher (recall/match/), which sits at the domain's
 * floor. The matcher touches no file, process or thread, and imports nothing of the index; and the
 * transaction knows nothing of recall (the index registers an after-commit step with Stores).
 */
const MATCHER_FORBIDDEN = /^(node:)?(fs|fs\/promises|child_process|worker_threads)$/

export function recallDoors(srcDir: string): string[] {
  const out: string[] = []
  const recall = path.join(srcDir, 'recall')
  const inside = (f: string, dir: string) => f === dir || f.startsWith(`${dir}${path.sep}`)
  for (const file of sources(srcDir)) {
    const from = path.relative(srcDir, file)
    const text = fs.readFileSync(file, 'utf8')
    for (const m of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]
      if (inside(file, path.join(recall, 'match'))) {
        if (MATCHER_FORBIDDEN.test(spec)) out.push(`${from} imports ${spec} (the matcher is pure)`)
        if (!spec.startsWith('.')) continue
        const target = path.resolve(path.dirname(file), spec)
        if (
          inside(target, srcDir) &&
          !inside(target, path.join(recall, 'match')) &&
          !inside(target, path.join(srcDir, 'domain'))
        )
          out.push(`${from} imports ${spec} (the matcher imports only the domain)`)
        continue
      }
      if (!spec.startsWith('.') || inside(file, recall)) continue
      const target = path.resolve(path.dirname(file), spec)
      if (!inside(target, recall)) continue
      if (path.basename(from) === 'transaction.ts' && inside(file, path.join(srcDir, 'store')))
        out.push(`${from} imports ${spec} (the transaction knows nothing of recall)`)
      else if (inside(file, path.join(srcDir, 'store'))) {
        if (!inside(target, path.join(recall, 'match')))
          out.push(`${from} imports ${spec} (store/ uses only the pure matcher)`)
      } else if (target !== path.join(recall, 'index.js'))
        out.push(`${from} imports ${spec} (only through recall/index.ts)`)
    }
  }
  return out
}

/**
 * One door (DESIGN: Code layout): app/ reaches the disk, git, the board, the index and rendered files only through the
 * Stores object and the ports it hands out, so every value import from app/ into store/ names store/stores.ts. A
 * type-only import (`import type {...}`, or braces whose every name is `type X`) loads nothing and may name any
 * store module; a dynamic import() loads one, so it counts.
 */
const STORE_DOOR = path.join('store', 'stores.js')
/** Whether an import or export clause (up to its `from`) names types only, so TypeScript erases it. */
function namesTypesOnly(clause: string): boolean {
  const c = clause.replace(/\s+/g, ' ').trim()
  if (/^(import|export) type /.test(c)) return true
  const names = /^(?:import|export) ?\{([^}]*)\} ?from$/
    .exec(c)?.[1]
    .split(',')
    .map(n => n.trim())
    .filter(Boolean)
  return !!names?.length && names.every(n => n.startsWith('type '))
}

export function storeDoor(srcDir: string): string[] {
  const out: string[] = []
  for (const file of sources(path.join(srcDir, 'app'))) {
    const from = path.relative(srcDir, file).split(path.sep).join('/')
    const text = fs.readFileSync(file, 'utf8')
    const imports =
      /((?:import|export)\s[^'"]*?from)\s+['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g
    for (const m of text.matchAll(imports)) {
      if (m[1] && namesTypesOnly(m[1])) continue
      const spec = m[2] ?? m[3] ?? m[4]
      const target = path.relative(srcDir, path.resolve(path.dirname(file), spec))
      if (target.split(path.sep)[0] !== 'store' || target === STORE_DOOR) continue
      out.push(`${from} imports ${spec} (a value import past the door: only store/stores.ts)`)
    }
  }
  return out
}

/** Whether an import statement's names are all types (TypeScript erases it: no module is loaded). */
const typeOnly = (clause: string): boolean =>
  /^(import|export)\s+type\s/.test(clause) ||
  (/\{([^}]*)\}/
    .exec(clause)?.[1]
    .split(',')
    .map(n => n.trim())
    .filter(Boolean)
    .every(n => n.startsWith('type ')) ??
    false)

/** Each set of files in src/ that load one another in a circle, type-only imports aside, as sorted paths. */
export function importCircles(srcDir: string): string[][] {
  const files = sources(srcDir)
  const edges = new Map<string, string[]>()
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8')
    const to: string[] = []
    for (const m of text.matchAll(
      /((?:import|export)\s[^'"]*?from)\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g,
    )) {
      if (m[1] && typeOnly(m[1])) continue
      to.push(path.resolve(path.dirname(file), (m[2] ?? m[3]).replace(/\.js$/, '.ts')))
    }
    edges.set(file, to)
  }
  // Tarjan's strongly connected components, with a stack of its own.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const circles: string[][] = []
  for (const root of files) {
    if (index.has(root)) continue
    const work: {file: string; next: number}[] = [{file: root, next: 0}]
    index.set(root, index.size)
    low.set(root, index.get(root)!)
    stack.push(root)
    onStack.add(root)
    while (work.length) {
      const top = work.at(-1)!
      const to = edges.get(top.file)?.[top.next++]
      if (to !== undefined) {
        if (!edges.has(to)) continue
        if (!index.has(to)) {
          index.set(to, index.size)
          low.set(to, index.get(to)!)
          stack.push(to)
          onStack.add(to)
          work.push({file: to, next: 0})
        } else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!))
        continue
      }
      work.pop()
      if (work.length) low.set(work.at(-1)!.file, Math.min(low.get(work.at(-1)!.file)!, low.get(top.file)!))
      if (low.get(top.file) !== index.get(top.file)) continue
      const component: string[] = []
      let f: string
      do {
        f = stack.pop()!
        onStack.delete(f)
        component.push(path.relative(srcDir, f))
      } while (f !== top.file)
      if (component.length > 1 || edges.get(top.file)!.includes(top.file)) circles.push(component.sort())
    }
  }
  return circles
}

describe('layering', () => {
  it('no modules in src/ load one another in a circle (type-only imports aside)', () => {
    expect(importCircles(path.join(ROOT, 'src'))).toEqual([])
  })

  it('the circle check finds a circle through three files, and not one made only of types', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.layer-'))
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import {b} from './b.js'\nexport const a = b\n")
      fs.writeFileSync(path.join(dir, 'b.ts'), "import {c} from './c.js'\nexport const b = c\n")
      fs.writeFileSync(path.join(dir, 'c.ts'), "import {a, type A} from './a.js'\nexport const c = 1\n")
      fs.writeFileSync(path.join(dir, 'd.ts'), "import type {E} from './e.js'\nexport type D = 1\n")
      fs.writeFileSync(path.join(dir, 'e.ts'), "import {type D} from './d.js'\nexport type E = 1\n")
      expect(importCircles(dir)).toEqual([['a.ts', 'b.ts', 'c.ts']])
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })

  it('src/app/ imports no node:fs and runs no git', () => {
    expect(appDoors(path.join(ROOT, 'src'))).toEqual([])
  })

  it('the door check catches fs and git in app/', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.layer-'))
    try {
      fs.mkdirSync(path.join(dir, 'app'))
      fs.writeFileSync(
        path.join(dir, 'app', 'x.ts'),
        "import fs from 'node:fs'\nimport {gitClient} from '../store/git.js'\nimport {simpleGit} from 'simple-git'\n",
      )
      expect(appDoors(dir)).toEqual([
        'app/x.ts imports node:fs (the file system)',
        'app/x.ts imports ../store/git.js (git)',
        'app/x.ts imports simple-git (git)',
      ])
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })

  it('src/app/ value-imports nothing of src/store/ but the door, store/stores.ts (types aside)', () => {
    expect(storeDoor(path.join(ROOT, 'src'))).toEqual([])
  })

  it('the door check catches a value import past the door, and lets types and the door through', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.layer-'))
    try {
      for (const d of ['app/board', 'app/deep/er', 'store/board', 'cli'])
        fs.mkdirSync(path.join(dir, d), {recursive: true})
      fs.writeFileSync(
        path.join(dir, 'app', 'a.ts'),
        [
          "import {openStores, type Stores} from '../store/stores.js'",
          "import type {Store} from '../store/layout.js'",
          "import {type CardFile, type LoadedCard} from '../store/cards/cards.js'",
          "export type {Lock} from '../store/locks/lock.js'",
          "import {rel} from '../store/layout.js'",
          'import {',
          '  type Store as S,',
          '  abs,',
          "} from '../store/layout.js'",
          "export {x} from '../store/x.js'",
          "const c = await import('../store/settings/config.js')",
          "import '../store/side.js'",
          "import {} from '../store/empty.js'",
          "import {y} from './y.js'",
          "import {d} from '../domain/d.js'",
          '',
        ].join('\n'),
      )
      fs.writeFileSync(
        path.join(dir, 'app', 'deep', 'er', 'b.ts'),
        "import {openStores} from '../../../store/stores.js'\nimport {loadBoard} from '../../../store/board/board.js'\n",
      )
      // install.ts is held to the door as every other use case is; store/ and the other floors are not this check's.
      fs.writeFileSync(
        path.join(dir, 'app', 'install.ts'),
        "import {readBytes} from '../store/agents/agent-files.js'\n",
      )
      fs.writeFileSync(path.join(dir, 'store', 'board', 'board.ts'), "import {rel} from '../layout.js'\n")
      fs.writeFileSync(path.join(dir, 'cli', 'c.ts'), "import {rel} from '../store/layout.js'\n")
      const past = (file: string, spec: string) =>
        `${file} imports ${spec} (a value import past the door: only store/stores.ts)`
      expect(storeDoor(dir).sort()).toEqual(
        [
          past('app/a.ts', '../store/layout.js'),
          past('app/a.ts', '../store/layout.js'),
          past('app/a.ts', '../store/x.js'),
          past('app/a.ts', '../store/settings/config.js'),
          past('app/a.ts', '../store/side.js'),
          past('app/a.ts', '../store/empty.js'),
          past('app/deep/er/b.ts', '../../../store/board/board.js'),
          past('app/install.ts', '../store/agents/agent-files.js'),
        ].sort(),
      )
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })

  it('recall is reached only through src/recall/index.ts, and its matcher is pure', () => {
    expect(recallDoors(path.join(ROOT, 'src'))).toEqual([])
    expect(fs.existsSync(path.join(ROOT, 'src', 'domain', 'recall'))).toBe(false)
    expect(sources(path.join(ROOT, 'src', 'store')).filter(f => /recall|lexicon/.test(path.basename(f)))).toEqual([])
  })

  it('the recall door check catches a reach past the door, fs in the matcher and recall in the transaction', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.layer-'))
    try {
      for (const d of ['app', 'store', 'recall/match']) fs.mkdirSync(path.join(dir, d), {recursive: true})
      fs.writeFileSync(
        path.join(dir, 'app', 'a.ts'),
        "import {x} from '../recall/index.js'\nimport {y} from '../recall/open.js'\n",
      )
      fs.writeFileSync(path.join(dir, 'store', 'transaction.ts'), "const r = await import('../recall/index.js')\n")
      fs.writeFileSync(
        path.join(dir, 'store', 's.ts'),
        "import {m} from '../recall/match/m.js'\nimport {o} from '../recall/open.js'\n",
      )
      fs.writeFileSync(
        path.join(dir, 'recall', 'match', 'm.ts'),
        "import fs from 'node:fs'\nimport {o} from '../open.js'\nimport {d} from '../../domain/d.js'\n",
      )
      expect(recallDoors(dir)).toEqual([
        'app/a.ts imports ../recall/open.js (only through recall/index.ts)',
        'recall/match/m.ts imports node:fs (the matcher is pure)',
        'recall/match/m.ts imports ../open.js (the matcher imports only the domain)',
        'store/s.ts imports ../recall/open.js (store/ uses only the pure matcher)',
        'store/transaction.ts imports ../recall/index.js (the transaction knows nothing of recall)',
      ])
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })

  it('zod, yaml and secretlint come from src/domain/vendor/, bundled; the check catches a module importing a package', () => {
    expect(vendorBypasses(path.join(ROOT, 'src'))).toEqual([])
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.layer-'))
    try {
      fs.mkdirSync(path.join(dir, 'domain', 'vendor'), {recursive: true})
      fs.mkdirSync(path.join(dir, 'mcp'))
      fs.mkdirSync(path.join(dir, 'store'))
      fs.writeFileSync(path.join(dir, 'domain', 'vendor', 'zod.ts'), "export * from 'zod'\n")
      fs.writeFileSync(path.join(dir, 'domain', 'x.ts'), "import {z} from 'zod'\nimport YAML from 'yaml'\n")
      fs.writeFileSync(path.join(dir, 'mcp', 'm.ts'), "import {z} from 'zod'\n")
      fs.writeFileSync(path.join(dir, 'store', 's.ts'), "const core = await import('@secretlint/core')\n")
      expect(vendorBypasses(dir)).toEqual([
        'domain/x.ts imports zod',
        'domain/x.ts imports yaml',
        'store/s.ts imports @secretlint/core',
      ])
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })

  it('every import in src/ goes downward', () => {
    expect(violations(path.join(ROOT, 'src'))).toEqual([])
  })

  it('the check catches an upward import', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.layer-'))
    try {
      fs.mkdirSync(path.join(dir, 'domain'))
      fs.mkdirSync(path.join(dir, 'store'))
      fs.mkdirSync(path.join(dir, 'app'))
      fs.mkdirSync(path.join(dir, 'agents'))
      fs.writeFileSync(path.join(dir, 'domain', 'x.ts'), "import {y} from '../store/y.js'\n")
      fs.writeFileSync(path.join(dir, 'store', 'y.ts'), 'export const y = 1\n')
      // Agents call app use cases; an app use case never knows a client's wire format.
      fs.writeFileSync(path.join(dir, 'agents', 'a.ts'), "import {u} from '../app/u.js'\n")
      fs.writeFileSync(path.join(dir, 'app', 'u.ts'), "import {claude} from '../agents/a.js'\nexport const u = 1\n")
      expect(violations(dir)).toEqual([
        'app/u.ts imports ../agents/a.js (app → agents)',
        'domain/x.ts imports ../store/y.js (domain → store)',
      ])
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })
})
