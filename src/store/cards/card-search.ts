import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {Worker} from 'node:worker_threads'
import type {Context} from '../../context.js'
import {MAX_CARD_BYTES} from '../../domain/card/types.js'
import {PatternRefused, toJsRegExp} from '../../domain/search-pattern.js'
import {
  BOARD_STATE,
  cardLines,
  cardState,
  codePointSpan,
  fieldOf,
  compareHits,
  recordLines,
  type SearchHit,
  type SearchMatch,
  type SearchState,
  SEARCH_TIMEOUT_MS,
  SearchTooLarge,
} from '../../domain/search.js'
import {CARD_LOCATIONS, isRecordName, layerOf, type Location, rel, type Store} from '../layout.js'
import {dirIn} from '../files/store-files.js'
import {parseRipgrepJson, ripgrepBinary, runRipgrep} from '../files/ripgrep.js'
import {type CardFile, listCardFiles} from './cards.js'
import {type NodeSearchJob, type NodeSearchLine, readSearched, rustSpans, searchFiles} from './node-search.js'

/**
 * Full-text search of card files and board records (Stores.cardSearch): ripgrep when its binary is there, else the
 * same search in Node, with the same hits in the same order. Files are read as cairn reads cards: a link (file or
 * folder) is never followed, a card over MAX_CARD_BYTES (a record over its own cap) is skipped, invalid UTF-8 is read
 * with replacement characters, and only card files (`<location>/<type>/<id>.md`, no dot file) and board records are
 * searched, never .cache/ or .local/.
 */

export interface SearchRequest {
  pattern: string
  fixedStrings: boolean
  ignoreCase: boolean
  /** Only cards in these states. */
  states: readonly SearchState[]
  /** Only cards of these types (type folders); all when empty. */
  types: readonly string[]
  /** Board records too. */
  board: boolean
}

export interface CardSearch {
  /** `ripgrep`, or `node` when there is no rg binary for this platform (or CAIRN_RG is off). */
  readonly engine: 'ripgrep' | 'node'
  /** This platform as ripgrep's packages name it (linux-x64): the package to install when rg is missing. */
  readonly platform: string
  /** Every matched line, in compareHits order. Throws PatternRefused for a pattern the engine refuses. */
  search(stores: readonly Store[], request: SearchRequest): Promise<SearchHit[]>
}

/** rg's output past this is refused: a pattern that matches nearly every line of a large store. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024

/** A file the search may read: a card file or a board record, with what a hit says of it. */
interface Target {
  store: Store
  /** Repo-relative POSIX path. */
  path: string
  card?: CardFile
  /** A board record's key (its file stem). */
  record?: string
}

export function openCardSearch(ctx: Context): CardSearch {
  const binary = ripgrepBinary(ctx.env)
  return {
    engine: binary ? 'ripgrep' : 'node',
    platform: `${process.platform}-${process.arch}`,
    async search(stores, request) {
      const recordCap = request.board ? (await import('../board/board.js')).MAX_RECORD_BYTES : 0
      if (binary) {
        const lines = await ripgrepLines({ctx, binary, request, maxBytes: Math.max(recordCap, MAX_CARD_BYTES)}, stores)
        return hitsOf(lines, request, recordCap)
      }
      // A regex the fallback cannot run is refused before any file is read, as rg refuses it before searching.
      toJsRegExp(request.pattern, {fixed: request.fixedStrings, ignoreCase: request.ignoreCase})
      const targets: Target[] = []
      for (const store of stores) targets.push(...(await targetsOf(store, request)))
      return hitsOf(await nodeLines(ctx, targets, request, recordCap), request, recordCap)
    },
  }
}

/** The card files (regular files only show up in hits: rg walks no link, the Node search opens none) and records. */
async function targetsOf(store: Store, request: SearchRequest): Promise<Target[]> {
  const locations = locationsOf(request)
  const cards = listCardFiles(store, {archive: locations.has('archive')})
    .filter(f => locations.has(f.location) && (request.types.length === 0 || request.types.includes(f.dir)))
    .map(f => ({store, path: f.path, card: f}))
  if (!request.board) return cards
  const {batchesRel} = await import('../board/board.js')
  const dir = batchesRel(store)
  const names = realDir(store, dir) ? fs.readdirSync(path.join(store.root, dir)).sort() : []
  const records = names
    .filter(isRecordName)
    .map(name => ({store, path: path.posix.join(dir, name), record: name.slice(0, -'.json'.length)}))
  return [...cards, ...records]
}

/** One matched line, before it is placed in its card. */
interface FoundLine {
  target: Target
  line: number
  text: string
  /** UTF-16 offsets into text. */
  spans: {from: number; to: number}[]
}

/** Whether the folder is there with every level of it a real directory: a link on the way is never followed. */
function realDir(store: Store, relDir: string): boolean {
  try {
    return dirIn(store.root, relDir) !== null
  } catch {
    return false
  }
}

/** The folders rg walks for a store (real directories only: rg is never handed a link), and how deep. */
function roots(store: Store, request: SearchRequest, recordsDir: string | undefined): {dir: string; depth: number}[] {
  const out: {dir: string; depth: number}[] = []
  const add = (relDir: string, depth: number) => {
    if (realDir(store, relDir)) out.push({dir: relDir, depth})
  }
  if (request.states.includes('pending')) add(rel(store, 'pending'), 2)
  if (request.states.some(s => s === 'active' || s === 'deprecated' || s === 'superseded')) add(rel(store, 'cards'), 2)
  if (request.states.includes('archived')) add(rel(store, 'archive'), 4)
  if (recordsDir) add(recordsDir, 1)
  return out
}

/**
 * The card file or board record at a path rg found, or undefined for any other file there: the files listCardFiles
 * lists (`<location>/<type>/<id>.md`, `archive/<ts>/<location>/<type>/<id>.md`, no dot file) of the locations and
 * types asked for, and records (`board/batches/<name>.json`). rg walks no link, so each folder on the way is real.
 */
function targetAt(store: Store, relPath: string, request: SearchRequest, recordsDir: string | undefined) {
  const name = path.posix.basename(relPath)
  const folder = path.posix.dirname(relPath)
  if (recordsDir !== undefined && folder === recordsDir)
    return isRecordName(name) ? {store, path: relPath, record: name.slice(0, -'.json'.length)} : undefined
  const inStore = store.prefix
    ? relPath.startsWith(`${store.prefix}/`)
      ? relPath.slice(store.prefix.length + 1)
      : ''
    : relPath
  const parts = inStore.split('/')
  if (!name.endsWith('.md') || name.startsWith('.')) return undefined
  const live = parts.length === 3 && (CARD_LOCATIONS as readonly string[]).includes(parts[0])
  const archived =
    parts.length === 5 && parts[0] === 'archive' && (CARD_LOCATIONS as readonly string[]).includes(parts[2])
  if (!live && !archived) return undefined
  const location: Location = live ? (parts[0] as Location) : 'archive'
  const dir = parts[parts.length - 2]
  if (!locationsOf(request).has(location) || (request.types.length > 0 && !request.types.includes(dir)))
    return undefined
  const card: CardFile = {
    store,
    path: relPath,
    location,
    dir,
    name: name.slice(0, -3),
    archiveTs: archived ? parts[1] : undefined,
  }
  return {store, path: relPath, card}
}

/** The folders a request's states are in. */
function locationsOf(request: SearchRequest): Set<Location> {
  const locations = new Set<Location>()
  if (request.states.includes('pending')) locations.add('pending')
  if (request.states.some(s => s === 'active' || s === 'deprecated' || s === 'superseded')) locations.add('cards')
  if (request.states.includes('archived')) locations.add('archive')
  return locations
}

/** One rg search: the binary, the request, and rg's file size cap (the larger of the card's and the record's). */
interface RipgrepSearch {
  ctx: Context
  binary: string
  request: SearchRequest
  maxBytes: number
}

async function ripgrepLines(
  {ctx, binary, request, maxBytes}: RipgrepSearch,
  stores: readonly Store[],
): Promise<FoundLine[]> {
  const {batchesRel} = request.board ? await import('../board/board.js') : {batchesRel: undefined}
  const found: FoundLine[] = []
  const walks = stores.map(store => ({store, walk: roots(store, request, batchesRel?.(store))}))
  // With no folder to search, rg still reads the pattern (on empty input), so a bad one is refused all the same.
  if (walks.every(w => w.walk.length === 0)) {
    const check = await timed(ctx, signal =>
      runRipgrep(binary, ['--json', ...patternArgs(request), '--', '-'], {cwd: ctx.cwd, signal, input: ''}),
    )
    if (check.code === 2 && check.stderr) throw new PatternRefused(rgReason(check.stderr))
    return found
  }
  for (const {store, walk} of walks) {
    if (walk.length === 0) continue
    const args = [
      '--json',
      '--no-ignore',
      '--hidden',
      '--no-messages',
      '--text',
      '--crlf',
      '--max-filesize',
      String(maxBytes),
      '--max-depth',
      String(Math.max(...walk.map(w => w.depth))),
      ...patternArgs(request),
      '--',
      ...walk.map(w => w.dir || '.'),
    ]
    const run = await timed(ctx, signal =>
      runRipgrep(binary, args, {cwd: store.root, signal, maxOutputBytes: MAX_OUTPUT_BYTES}),
    )
    if (run.code === 2 && run.stdout.length === 0 && run.stderr) throw new PatternRefused(rgReason(run.stderr))
    const targets = new Map<string, Target | undefined>()
    for (const m of parseRipgrepJson(run.stdout, {offsets: true})) {
      const relPath = m.path.replace(/\\/g, '/').replace(/^\.\//, '')
      if (!targets.has(relPath)) targets.set(relPath, targetAt(store, relPath, request, batchesRel?.(store)))
      const target = targets.get(relPath)
      if (!target) continue
      found.push({target, line: m.line, text: m.text, spans: rustSpans(m.spans.map(s => ({from: s.from!, to: s.to!})))})
    }
  }
  return found
}

/** The pattern, always after -e (so one that starts with "-" is no flag), and how to read it. */
const patternArgs = (request: SearchRequest): string[] => [
  ...(request.fixedStrings ? ['--fixed-strings'] : []),
  ...(request.ignoreCase ? ['--ignore-case'] : []),
  '-e',
  request.pattern,
]

/** rg under a time limit: stopped, and refused as too large, past it. */
async function timed<T>(ctx: Context, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ms = Number(ctx.env.CAIRN_SEARCH_TIMEOUT_MS) || SEARCH_TIMEOUT_MS
  const signal = AbortSignal.timeout(ms)
  try {
    return await run(signal)
  } catch (error) {
    if (signal.aborted) throw new SearchTooLarge('time')
    if (error instanceof Error && /wrote more than/.test(error.message)) throw new SearchTooLarge('output')
    throw error
  }
}

/** The reason in rg's refusal: its last "error:" line (the rest quotes the pattern rg built around it). */
function rgReason(stderr: string): string {
  const lines = stderr.split('\n').map(l => l.trim())
  const error = lines.reverse().find(l => l.startsWith('error:'))
  // The sentence around it ends with a period of its own.
  return (error ? error.slice('error:'.length) : (lines.find(l => l) ?? stderr)).trim().replace(/[.\s]+$/, '')
}

/** A target's text (UTF-8 with replacement, no BOM); undefined for a link, a file over its cap, or one gone. */
const readTarget = (target: Target, recordCap: number): string | undefined =>
  readSearched({file: path.join(target.store.root, target.path), label: target.path, cap: capOf(target, recordCap)})

const capOf = (target: Target, recordCap: number): number => (target.card ? MAX_CARD_BYTES : recordCap)

/**
 * The search in Node: in a worker thread, stopped at the time limit (a JavaScript regex can backtrack for minutes on
 * one line, where Rust's never does), when the worker script is there (a build); else in this thread.
 */
async function nodeLines(
  ctx: Context,
  list: Target[],
  request: SearchRequest,
  recordCap: number,
): Promise<FoundLine[]> {
  const job: NodeSearchJob = {
    files: list.map(t => ({file: path.join(t.store.root, t.path), label: t.path, cap: capOf(t, recordCap)})),
    pattern: request.pattern,
    fixed: request.fixedStrings,
    ignoreCase: request.ignoreCase,
  }
  const worker = fileURLToPath(WORKER)
  const lines = fs.existsSync(worker) ? await inWorker(ctx, job) : searchFiles(job)
  return lines.map(l => ({target: list[l.file], line: l.line, text: l.text, spans: l.spans}))
}

const WORKER = new URL('./search-worker.js', import.meta.url)

function inWorker(ctx: Context, job: NodeSearchJob): Promise<NodeSearchLine[]> {
  const ms = Number(ctx.env.CAIRN_SEARCH_TIMEOUT_MS) || SEARCH_TIMEOUT_MS
  // The process's flags, but --input-type (a script given with -e) applies to no file.
  const execArgv = process.execArgv.filter(a => !a.startsWith('--input-type'))
  const worker = new Worker(WORKER, {workerData: job, execArgv})
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(new SearchTooLarge('time'))
    }, ms)
    const done = () => clearTimeout(timer)
    worker.once('message', (lines: NodeSearchLine[]) => {
      done()
      void worker.terminate()
      resolve(lines)
    })
    worker.once('error', error => {
      done()
      reject(error)
    })
  })
}

/** Places each line in its card: the field, the card's state; drops what the request leaves out. Sorted. */
function hitsOf(lines: FoundLine[], request: SearchRequest, recordCap: number): SearchHit[] {
  const files = new Map<Target, ReturnType<typeof cardLines> | null>()
  const hits: SearchHit[] = []
  for (const found of lines) {
    const {target} = found
    if (!files.has(target)) {
      // The file read again as cairn reads it: a file over its cap (rg's cap is the larger one) is no hit.
      const text = readTarget(target, recordCap)
      files.set(target, text === undefined ? null : target.card ? cardLines(text) : recordLines(text))
    }
    const placed = files.get(target)
    if (!placed) continue
    const state = target.card ? cardState(target.card.location, placed.status) : BOARD_STATE
    if (target.card && !request.states.includes(state as SearchState)) continue
    hits.push({
      id: target.card?.name ?? target.record!,
      store: target.store.kind,
      ...(target.store.org ? {layer: layerOf(target.store)} : {}),
      state,
      type: target.card?.dir ?? null,
      file: target.path,
      field: fieldOf(placed, found.line),
      line: found.line,
      text: found.text,
      matches: found.spans.map((s): SearchMatch => codePointSpan(found.text, s.from, s.to)),
    })
  }
  return hits.sort(compareHits)
}
