import path from 'node:path'
import {CairnError, type Issue, quietSay} from '../domain/errors.js'
import {speakIssue} from '../domain/messages/issues.js'
import type {StoreLanguage} from '../domain/messages/language.js'
import {type LintEntry, lintEntries, type Problem} from '../domain/lint.js'
import {BUILTIN_SIGNALS, lexiconRel, loadTeamLexicon} from '../recall/index.js'
import {type StoredCard, unreachableCards} from './lint-reach.js'
import type {CardChecks} from '../store/cards/card-checks.js'
import type {CardFile} from '../store/cards/cards.js'
import type {Context} from '../context.js'
import type {Store} from '../store/layout.js'
import {abs, signalsRel, type StoreChoice, storeDir, type Stores} from '../store/stores.js'
import {openStores, storeLanguage} from './stores.js'

export interface LintInput {
  paths?: string[]
  store?: StoreChoice
  /** Secret fingerprints allowed instead of each store's secrets.allow: the review check passes its base branch's. */
  allowSecrets?: ReadonlySet<string>
  /** Link hosts allowed instead of each store's content.allow_hosts: the review check passes its base branch's. */
  allowHosts?: readonly string[]
}

export interface LintResult {
  /** The language the problems are said in: the first store's knowledge_language. */
  language: StoreLanguage
  checked: number
  errors: number
  warnings: number
  problems: Problem[]
}

function entryFor(checks: CardChecks, file: string, label: string, base: Omit<LintEntry, 'path'>): LintEntry {
  try {
    return {...base, path: label, source: file, card: checks.readCard(file, label)}
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    return {...base, path: label, source: file, error}
  }
}

const placeOf = (f: CardFile): Omit<LintEntry, 'path'> => ({location: f.location, dir: f.dir, name: f.name})

/**
 * The store's card files read as lint reads them, by path: through the card cache, which list, review and
 * maintain share, so only files changed since any of them read the store are parsed (and cached for them).
 */
async function loadedByPath(open: Stores, store: Store): Promise<Map<string, LintEntry>> {
  const {cards, errors} = await open.loadAll(store, {archive: true})
  const out = new Map<string, LintEntry>()
  for (const c of cards) out.set(c.path, {...placeOf(c), path: c.path, source: abs(store, c.path), card: c.card})
  for (const {file: f, error} of errors)
    out.set(f.path, {...placeOf(f), path: f.path, source: abs(store, f.path), error})
  return out
}

/** Lints the stores (or just PATHS, checked against the stores for uniqueness and links). */
export async function lint(ctx: Context, input: LintInput = {}): Promise<LintResult> {
  const open = openStores(ctx)
  const stores = open.readable(input.store)
  open.noteInterrupted(stores)
  const checks = await open.cardChecks()
  const all: LintEntry[] = []
  const reviewed: StoredCard[] = []
  for (const store of stores) {
    const files = open.list(store, {archive: true})
    if (files.length > 500) ctx.progress(`checking ${files.length} card files in the ${store.kind} store`)
    const loaded = await loadedByPath(open, store)
    for (const f of files) {
      const e = loaded.get(f.path) ?? entryFor(checks, abs(store, f.path), f.path, placeOf(f))
      all.push(e)
      if (e.card && f.location === 'cards') reviewed.push({file: e.path, store: store.kind, card: e.card})
    }
  }
  let targets: Set<string> | null = null
  if (input.paths?.length) {
    targets = new Set()
    const known = new Map(all.map(e => [path.resolve(rootOf(open, stores, e.path), e.path), e]))
    const inputs = await open.input()
    for (const p of input.paths
      .flatMap(given => inputs.files(given, ['.md']))
      .filter(f => f.endsWith('.md'))
      .map(f => path.resolve(ctx.cwd, f))) {
      const hit = known.get(p)
      if (hit) targets.add(hit.path)
      else {
        const label = path.relative(ctx.cwd, p) || p
        all.push(entryFor(checks, p, label, {location: 'other', name: path.basename(p, '.md')}))
        targets.add(label)
      }
    }
  }
  const {known, problems: signalProblems} = await knownSignals(open)
  // An invalid config.yaml turns every hook off (they fail open), so lint must say so.
  const configProblems = (await Promise.all(stores.map(store => configIssues(open, store)))).flat()
  const lexiconProblems = (await Promise.all(stores.map(lexiconIssues))).flat()
  const allow = input.allowSecrets ?? new Set(stores.flatMap(s => [...checks.allowedSecrets(s)]))
  const hosts = input.allowHosts ?? stores.flatMap(s => checks.allowedHosts(s))
  const steering = stores.length ? checks.steeringCache(stores[0]) : undefined
  const secrets = await checks.findSecrets(
    all.map(e => (e.card ? {file: e.path, card: e.card} : {file: e.path, path: e.source!})),
    allow,
    hosts,
    steering,
  )
  steering?.save()
  // Matching needs a valid config and signal registry; their own problems are reported above.
  const reach =
    configProblems.length || signalProblems.length ? [] : reviewed.filter(c => !targets || targets.has(c.file))
  const language = await storeLanguage(open, stores)
  const problems = [
    ...configProblems,
    ...lexiconProblems,
    ...signalProblems,
    ...lintEntries(all, targets, known, secrets),
    ...(await unreachableCards(ctx, reach)),
  ].map(p => speakIssue(p, language))
  const checked = targets ? targets.size : all.length
  return {
    language,
    checked,
    errors: problems.filter(p => p.severity === 'error').length,
    warnings: problems.filter(p => p.severity === 'warning').length,
    problems,
  }
}

function rootOf(open: ReturnType<typeof openStores>, stores: Store[], relPath: string): string {
  return stores.find(st => open.exists(st, relPath))?.root ?? ''
}

/** Rules that need the whole library (other cards' ids and links), left to a full `cairn lint`. */
const LIBRARY_RULES = new Set(['unique-id', 'broken-link', 'archived-link'])

/**
 * Lints just these card files (absolute paths inside a store), for the post-tool hook: the schema,
 * lifecycle, slug, signal and secret checks that one file decides, without reading the rest of
 * the library, so an edited card is checked within the hook's deadline at any library size.
 */
export async function lintCardFiles(
  ctx: Context,
  files: string[],
  language: StoreLanguage = 'en',
): Promise<LintResult> {
  const open = openStores(ctx)
  const checks = await open.cardChecks()
  const entries: LintEntry[] = []
  for (const file of files) {
    const store = open.readable('all').find(s => file.startsWith(`${storeDir(s)}${path.sep}`))
    const label = store ? path.relative(store.root, file).split(path.sep).join('/') : file
    const [location, dir] = store ? path.relative(storeDir(store), file).split(path.sep) : []
    const where = location === 'pending' || location === 'cards' ? location : 'other'
    entries.push(
      entryFor(checks, file, label, {
        location: where,
        dir: where === 'other' ? undefined : dir,
        name: path.basename(file, '.md'),
      }),
    )
  }
  const {known} = await knownSignals(open)
  const allow = new Set(open.readable('all').flatMap(s => [...checks.allowedSecrets(s)]))
  const secrets = await checks.findSecrets(
    entries.map(e => (e.card ? {file: e.path, card: e.card} : {file: e.path, path: e.source!})),
    allow,
    open.readable('all').flatMap(s => checks.allowedHosts(s)),
  )
  const problems = lintEntries(entries, null, known, secrets)
    .filter(p => !LIBRARY_RULES.has(p.rule))
    .map(p => speakIssue(p, language))
  return {
    language,
    checked: entries.length,
    errors: problems.filter(p => p.severity === 'error').length,
    warnings: problems.filter(p => p.severity === 'warning').length,
    problems,
  }
}

async function configIssues(open: ReturnType<typeof openStores>, store: Store): Promise<Problem[]> {
  try {
    await open.config(store)
    return []
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    return issuesOf(error)
      .map(i => ({
        file: i.file ?? 'config.yaml',
        field: i.field,
        rule: 'config-file',
        severity: 'error' as const,
        message: i.message,
        fix: i.fix,
        say: i.say,
      }))
      .map(quietSay)
  }
}

/** A project store's .cairn/lexicon.yaml, checked like config.yaml: a broken file must not go unnoticed. */
async function lexiconIssues(store: Store): Promise<Problem[]> {
  try {
    const {readTeamLexicon} = await loadTeamLexicon()
    readTeamLexicon(store)
    return []
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    const file = lexiconRel(store)
    return issuesOf(error)
      .map(i => ({
        file: i.file ?? file,
        field: i.field,
        rule: 'lexicon-file',
        severity: 'error' as const,
        message: i.message,
        fix: i.fix,
        say: i.say,
      }))
      .map(quietSay)
  }
}

function issuesOf(error: CairnError): Issue[] {
  return (error.data as {issues?: Issue[]})?.issues ?? [{field: '(file)', message: error.message}]
}

/** Built-in plus project signal ids; a broken signals.yaml is itself a lint problem. */
async function knownSignals(open: Stores): Promise<{known: Set<string>; problems: Problem[]}> {
  const store = open.project
  const known = new Set(BUILTIN_SIGNALS.map(s => s.id))
  try {
    for (const s of await open.signals(store)) known.add(s.id)
    return {known, problems: []}
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    const issues = issuesOf(error)
    const file = store ? signalsRel(store) : 'signals.yaml'
    return {
      known,
      problems: issues
        .map(i => ({
          file,
          field: i.field,
          rule: 'signals-file',
          severity: 'error' as const,
          message: i.message,
          fix: i.fix,
          say: i.say,
        }))
        .map(quietSay),
    }
  }
}
