import {isBare, missingFields} from '../domain/thin.js'
import {getRule} from '../domain/card/sections.js'
import {catalogPhrase} from '../domain/catalog.js'
import type {Config} from '../domain/config.js'
import {CairnError, formatIssue, type Issue} from '../domain/errors.js'
import {coreText} from '../domain/core.js'
import {decodeMatch, decodeRank, encodeMatch, encodeRank} from './match/codec.js'
import {buildDoc, type CardDoc, conceptPostings, strongPhrases, supportPhrases} from './match/doc.js'
import type {Translator} from './match/expand.js'
import {parseCard} from '../domain/card/format.js'
import {MAX_CARD_BYTES} from '../domain/card/types.js'
import {decodeUtf8} from '../domain/text.js'
import {blobHash} from './proof.js'
import {readRegularFile} from '../store/files/safe-read.js'
import {readConfig} from '../store/settings/config.js'
import {layerOf, type Store, storeDir} from '../store/layout.js'
import type {FileEntry, Found, HookSettings, Risk, SessionFacts, Settings, SkippedCard, Stamp} from './format.js'
import {hookSettings, INDEX_VERSION, parseStamps, racy, sameStamp, settled} from './format.js'
import {type IndexFile, type IndexRecord, IndexWriter} from './write.js'
import {BatchBuilder, type Batch} from './batch.js'
import {chunksInOrder, type Job, type Pool, POOL_MIN} from './pool.js'
import {type Opened, region} from './read.js'
import {readProjectSignals} from '../store/settings/signals.js'

/**
 * The cold half of the index: loaded only when something changed, because it needs the card
 * parser, YAML and zod. Records of unchanged files are carried over; changed files are parsed.
 */
export interface RebuildInput {
  stores: readonly Store[]
  found: Found[]
  cached: Opened | null
  configStamp: Stamp
  signalsStamp: Stamp
  /** Date.now() taken before `found` was stamped (Header.scanned), and the racy files' hashes (Header.pins). */
  scanned: number
  pins: Record<string, string>
  /** The lexicon cards are indexed with, and what identifies it (lexicon.ts). */
  lexicon: {translator: Translator; version: string; stamp: Stamp}
  /** A worker thread started ahead for a large rebuild (pool.ts): used if the parse is pooled, stopped either way. */
  pool?: Pool | null
}

interface Halves {
  match: string
  rank: string
}

interface Active {
  doc: CardDoc
  halves: Halves
  facts: SessionFacts
}

interface Previous {
  size: number
  ctime: number
  halves?: Halves
  facts?: SessionFacts
  problem?: string
  blob?: string
}

/** The new index; its header lists the card files left out because they fail to parse (new or carried over). */
export function rebuild(input: RebuildInput): IndexFile {
  const {stores, found} = input
  const skipped: SkippedCard[] = []
  // Records built with another lexicon carry other translations: every card is indexed again.
  const lex = input.lexicon
  // A stamp taken in the same tick as a write may hide the next one: such a file is read again.
  const since = input.cached?.header.scanned ?? 0
  const same = (a: Stamp, b: Stamp) => sameStamp(a, b) && settled(b, since)
  const sameLexicon =
    !!input.cached &&
    input.cached.header.lexicon?.version === lex.version &&
    same(input.cached.header.lexicon.stamp, lex.stamp)
  const old = previous(sameLexicon ? input.cached : null)
  const writer = new IndexWriter(found.length)
  const files: FileEntry[] = []
  const seen = new Set<string>()
  // Unchanged files keep their records (decoded again for their postings); the others are parsed,
  // a run at a time, on a second core too when there are many (pool.ts).
  const jobs: Job[] = found.map(f => {
    const prev = old.get(`${storeDir(stores[f.store])}\n${f.rel}`)
    const same = prev && prev.size === f.size && prev.ctime === f.ctime && !racy(f.ctime, since)
    return same
      ? {
          store: f.store,
          file: f.file,
          carried: {halves: prev.halves, facts: prev.facts, problem: prev.problem, blob: prev.blob},
        }
      : {store: f.store, file: f.file}
  })
  const parse = jobs.filter(j => !j.carried).length
  const runs = chunksInOrder(stores, jobs, run => runChunk(stores, run, lex.translator), {
    pooled: parse >= POOL_MIN,
    pool: input.pool,
  })
  try {
    let k = 0
    for (const {outcomes, batch} of runs) {
      for (const {id, facts, at, problem, blob} of outcomes) {
        const f = found[k++]
        const known = blob === undefined ? {} : {blob}
        if (problem !== undefined)
          skipped.push({path: shownPath(stores[f.store], f.file), problem, size: f.size, mtime: f.mtime})
        if (at === undefined || id === undefined) {
          files.push({record: -1, visible: false, ...(problem === undefined ? {} : {problem}), ...known})
          continue
        }
        // Stores come project first, so the first copy of an id is the one that wins.
        const visible = !seen.has(id)
        seen.add(id)
        const record = writer.add(batch, at, visible)
        files.push({record, visible, facts, ...known})
      }
    }
  } finally {
    runs.return(undefined)
  }
  const cached = input.cached?.header
  const primary = stores[0]
  const config =
    cached && same(cached.config.stamp, input.configStamp)
      ? cached.config
      : {stamp: input.configStamp, settings: settingsOf(primary)}
  const signals =
    cached && same(cached.signals.stamp, input.signalsStamp)
      ? cached.signals
      : {stamp: input.signalsStamp, list: primary.kind === 'project' ? readProjectSignals(primary) : []}
  const lexicon = {version: lex.version, stamp: lex.stamp}
  const header = {
    version: INDEX_VERSION,
    skipped,
    stores: stores.map(storeDir),
    config,
    signals,
    lexicon,
    scanned: input.scanned,
    pins: input.pins,
  }
  return writer.finish(header, found, files, lex.translator)
}

/** The session entries of a record: core or catalog by its load, and a path entry when it has paths. */
function sessionOf(doc: CardDoc, facts: SessionFacts): IndexRecord['session'] {
  const {level, project_key, module_path, paths} = doc.scope
  const place = {
    id: doc.id,
    title: doc.title,
    store: doc.store,
    ...(doc.layer ? {layer: doc.layer} : {}),
    path: doc.path,
    scope: {level, project_key},
  }
  const {policy, summary} = doc
  const risk = doc.risk as Risk
  const out: IndexRecord['session'] = {}
  if (facts.bare) out.bare = true
  if (facts.load === 'core') out.core = {...place, policy, risk, text: facts.core ?? ''}
  else out.catalog = {...place, policy, category: facts.category ?? 'general', ...catalogPhrase(doc.use_when, summary)}
  if (paths.length > 0)
    out.path = {...place, summary, policy, risk, module_path, paths, rule: facts.rule ?? summary, cited: doc.cited}
  return out
}

/** A card file's outcome: its record (number `at` of its batch) when it is an active card, or why it cannot be loaded. */
export interface Outcome {
  id?: string
  facts?: SessionFacts
  at?: number
  problem?: string
  /** The git blob id of the bytes read (FileEntry.blob). */
  blob?: string
}

/** A run of card files as the writer takes them: each one's outcome, and their records in one batch. */
export interface Chunk {
  outcomes: Outcome[]
  batch: Batch
}

/** The records of a run of card files: carried over (decoded again), or parsed (the pool's worker runs this too). */
export function runChunk(
  stores: readonly Store[],
  jobs: readonly Job[],
  tr: Translator,
): Chunk & {transfer: ArrayBuffer[]} {
  const builder = new BatchBuilder()
  const add = (doc: CardDoc, halves: Halves, facts: SessionFacts): Outcome => ({
    id: doc.id,
    facts,
    at: builder.add(recordOf(doc, halves, facts)),
  })
  const outcomes = jobs.map((j): Outcome => {
    if (j.carried) {
      const {halves, facts, problem, blob} = j.carried as {
        halves?: Halves
        facts?: SessionFacts
        problem?: string
        blob?: string
      }
      const out: Outcome = {...(problem === undefined ? {} : {problem}), ...(blob === undefined ? {} : {blob})}
      return halves && facts
        ? {...out, ...add({...decodeMatch(halves.match), ...decodeRank(halves.rank)}, halves, facts)}
        : out
    }
    const {active, ...rest} = parseActive(stores[j.store], j.file, tr) as {
      active?: Active
      problem?: string
      blob?: string
    }
    return active ? {...rest, ...add(active.doc, active.halves, active.facts)} : rest
  })
  const {batch, transfer} = builder.take()
  return {outcomes, batch, transfer}
}

function recordOf(doc: CardDoc, halves: Halves, facts: SessionFacts): Omit<IndexRecord, 'visible'> {
  return {
    ...halves,
    must: doc.policy === 'must',
    strong: strongPhrases(doc),
    concepts: conceptPostings(doc),
    support: supportPhrases(doc),
    tf: doc.tf,
    len: doc.len,
    session: sessionOf(doc, facts),
  }
}

/** The cached records by store and path, with the stamp they were built from. */
function previous(o: Opened | null): Map<string, Previous> {
  const out = new Map<string, Previous>()
  if (!o) return out
  try {
    const stamps = parseStamps(region(o, 'stamps').toString('utf8'))
    const files = JSON.parse(region(o, 'files').toString('utf8')) as FileEntry[]
    const recordAt = region(o, 'recordAt')
    const records = region(o, 'records')
    // Record i's match half is half 2i, its rank half 2i + 1.
    const half = (k: number) => records.toString('utf8', recordAt.readUInt32LE(k * 4), recordAt.readUInt32LE(k * 4 + 4))
    files.forEach(({record: i, facts, problem, blob}, k) => {
      const {store, rel, size, ctime} = stamps[k]
      const halves = i >= 0 ? {match: half(2 * i), rank: half(2 * i + 1)} : undefined
      out.set(`${o.header.stores[store]}\n${rel}`, {size, ctime, halves, facts, problem, blob})
    })
    return out
  } catch {
    return new Map() // unreadable or corrupt regions: parse everything again
  }
}

/**
 * A card file's record when it is an active card (none when it is not); a file that fails to parse
 * gives its problem. Either way the blob id of the bytes read, when they could be read.
 */
export function parseActive(
  store: Store,
  file: string,
  tr: Translator,
): {active?: Active; blob?: string} | {problem: string; blob?: string} {
  const relPath = repoRel(store, file)
  let blob: string | undefined
  try {
    const bytes = readRegularFile(file, relPath, MAX_CARD_BYTES)
    blob = blobHash(bytes)
    const card = parseCard(decodeUtf8(bytes, relPath), relPath)
    if (card.status !== 'active') return {blob}
    const rule = getRule(card.body)
    const doc = buildDoc(
      card,
      rule ?? '',
      {store: store.kind, ...(store.org ? {layer: layerOf(store)} : {}), path: relPath},
      tr,
    )
    const facts: SessionFacts = {load: card.load}
    if (card.load === 'core') facts.core = coreText(card)
    else facts.category = card.category
    // A core card is in every session whatever its words: it needs no recall phrases.
    if (card.load !== 'core' && isBare(missingFields(card))) facts.bare = true
    if (card.scope.paths.length > 0) facts.rule = rule ?? card.summary
    return {active: {doc, halves: {match: encodeMatch(doc), rank: encodeRank(doc)}, facts}, blob}
  } catch (error) {
    return {problem: problemOf(error, relPath), blob}
  }
}

/** Each broken field with its fix, without the file name (the warning names it once); else the error itself. */
function problemOf(error: unknown, relPath: string): string {
  const issues = error instanceof CairnError ? (error.data as {issues?: Issue[]} | undefined)?.issues : undefined
  if (issues?.length) return issues.map(i => formatIssue({...i, file: undefined})).join(' ')
  const message = error instanceof Error ? error.message : String(error)
  return message.startsWith(`${relPath}: `) ? message.slice(relPath.length + 2) : message
}

/** A card file's path relative to its repository, with forward slashes. */
const repoRel = (store: Store, file: string): string =>
  file
    .slice(store.root.length + 1)
    .split('\\')
    .join('/')

/** How a skipped file is named to the user: repo-relative in the project, absolute in the personal store. */
const shownPath = (store: Store, file: string): string => (store.kind === 'project' ? repoRel(store, file) : file)

export function settingsOf(store: Store): Settings {
  const c = readConfig(store)
  return {
    maxCards: c.recall.max_cards,
    budgetChars: c.recall.budget_chars,
    projectKey: c.project_key,
    hooks: hookSettings(c),
  }
}
