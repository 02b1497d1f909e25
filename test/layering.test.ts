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
  cli: ['app', 'domain'],
  app: ['domain', 'store'],
  agents: ['app', 'domain', 'store'],
  store: ['domain'],
  domain: [],
}

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
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
      const spec = m[1] ?? m[2]
      const target = path.relative(srcDir, path.resolve(path.dirname(file), spec)).split(path.sep)[0]
      if (target === layer) continue
      if (!(ALLOWED[layer] ?? []).includes(target)) out.push(`${path.relative(srcDir, file)} imports ${spec} (${layer} → ${target})`)
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
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const spec = m[1] ?? m[2]
      for (const [re, what] of APP_FORBIDDEN) if (re.test(spec)) out.push(`${path.relative(srcDir, file)} imports ${spec} (${what})`)
    }
  }
  return out
}

/** Whether an import statement's names are all types (TypeScript erases it: no module is loaded). */
const typeOnly = (clause: string): boolean =>
  /^(import|export)\s+type\s/.test(clause) || (/\{([^}]*)\}/.exec(clause)?.[1].split(',').map(n => n.trim()).filter(Boolean)
    .every(n => n.startsWith('type ')) ?? false)

/** Each set of files in src/ that load one another in a circle, type-only imports aside, as sorted paths. */
export function importCircles(srcDir: string): string[][] {
  const files = sources(srcDir)
  const edges = new Map<string, string[]>()
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8')
    const to: string[] = []
    for (const m of text.matchAll(/((?:import|export)\s[^'"]*?from)\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
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
      fs.writeFileSync(path.join(dir, 'app', 'x.ts'), "import fs from 'node:fs'\nimport {gitClient} from '../store/git.js'\nimport {simpleGit} from 'simple-git'\n")
      expect(appDoors(dir)).toEqual([
        'app/x.ts imports node:fs (the file system)',
        'app/x.ts imports ../store/git.js (git)',
        'app/x.ts imports simple-git (git)',
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
      expect(violations(dir)).toEqual(['app/u.ts imports ../agents/a.js (app → agents)', 'domain/x.ts imports ../store/y.js (domain → store)'])
    } finally {
      fs.rmSync(dir, {recursive: true, force: true})
    }
  })
})
