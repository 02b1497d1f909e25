import fs from 'node:fs'
import path from 'node:path'
import {CairnError} from '../domain/errors.js'
import {type LintEntry, lintEntries, type Problem} from '../domain/lint.js'
import {BUILTIN_SIGNALS} from '../domain/recall/signals.js'
import {listCardFiles, readCardFile} from '../store/cards.js'
import {allowedSecrets, findSecrets} from '../store/secrets.js'
import {readProjectSignals, signalsRel} from '../store/signals.js'
import type {Context} from '../store/context.js'
import {abs, optionalProjectStore} from '../store/layout.js'
import {readableStores, type StoreChoice} from './stores.js'

export interface LintInput {
  paths?: string[]
  store?: StoreChoice
}

export interface LintResult {
  checked: number
  errors: number
  warnings: number
  problems: Problem[]
}

function entryFor(file: string, label: string, base: Omit<LintEntry, 'path'>): LintEntry {
  try {
    return {...base, path: label, source: file, card: readCardFile(file, label)}
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    return {...base, path: label, source: file, error}
  }
}

/** Lints the stores (or just PATHS, checked against the stores for uniqueness and links). */
export async function lint(ctx: Context, input: LintInput = {}): Promise<LintResult> {
  const stores = readableStores(ctx, input.store)
  const all: LintEntry[] = []
  for (const store of stores) {
    const files = listCardFiles(store, {archive: true})
    if (files.length > 500) ctx.progress(`checking ${files.length} card files in the ${store.kind} store`)
    for (const f of files) {
      all.push(entryFor(abs(store, f.path), f.path, {location: f.location, dir: f.dir, name: f.name}))
    }
  }
  let targets: Set<string> | null = null
  if (input.paths?.length) {
    targets = new Set()
    const known = new Map(all.map(e => [path.resolve(rootOf(stores, e.path), e.path), e]))
    for (const p of expand(ctx, input.paths)) {
      const hit = known.get(p)
      if (hit) targets.add(hit.path)
      else {
        const label = path.relative(ctx.cwd, p) || p
        all.push(entryFor(p, label, {location: 'other', name: path.basename(p, '.md')}))
        targets.add(label)
      }
    }
  }
  const {known, problems: signalProblems} = knownSignals(ctx)
  const allow = new Set(stores.flatMap(s => [...allowedSecrets(s)]))
  const secrets = await findSecrets(all.map(e => (e.card ? {file: e.path, card: e.card} : {file: e.path, path: e.source!})), allow)
  const problems = [...signalProblems, ...lintEntries(all, targets, known, secrets)]
  const checked = targets ? targets.size : all.length
  return {checked, errors: problems.filter(p => p.severity === 'error').length, warnings: problems.filter(p => p.severity === 'warning').length, problems}
}

function rootOf(stores: ReturnType<typeof readableStores>, relPath: string): string {
  const s = stores.find(st => fs.existsSync(abs(st, relPath)))
  return s ? s.root : ''
}

function expand(ctx: Context, paths: string[]): string[] {
  const out: string[] = []
  const walk = (p: string) => {
    let stat: fs.Stats
    try {
      stat = fs.statSync(p)
    } catch {
      throw new CairnError('not_found', `${path.relative(ctx.cwd, p) || p}: no such file or directory`)
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) if (!name.startsWith('.')) walk(path.join(p, name))
    } else if (p.endsWith('.md')) out.push(p)
  }
  for (const p of paths) walk(path.resolve(ctx.cwd, p))
  return out
}

/** Built-in plus project signal ids; a broken signals.yaml is itself a lint problem. */
function knownSignals(ctx: Context): {known: Set<string>; problems: Problem[]} {
  const known = new Set(BUILTIN_SIGNALS.map(s => s.id))
  const store = optionalProjectStore(ctx)
  try {
    for (const s of readProjectSignals(store)) known.add(s.id)
    return {known, problems: []}
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    const issues = (error.data as {issues?: {field: string; message: string; fix?: string}[]})?.issues ?? [{field: '(file)', message: error.message}]
    const file = store ? signalsRel(store) : 'signals.yaml'
    return {known, problems: issues.map(i => ({file, field: i.field, rule: 'signals-file', severity: 'error' as const, message: i.message, fix: i.fix}))}
  }
}
