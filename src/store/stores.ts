import fs from 'node:fs'
import path from 'node:path'
import {isSafeId} from '../domain/card/types.js'
import type {CardType} from '../domain/card/types.js'
import type {Config} from '../domain/config.js'
import type {OrgPin} from '../domain/org.js'
import {orgLayers as orgLayersOf} from './org/pins.js'
import {CairnError} from '../domain/errors.js'
import {
  type CardFile,
  findById,
  listCardFiles,
  loadCardFile,
  type LoadedCard,
  loadStore,
  readCardText,
} from './cards/cards.js'
import type {Context} from '../context.js'
import type {CairnCommit} from './cards/history.js'
import {
  abs,
  cardRel,
  configRel,
  isInitialised,
  existingPersonal,
  initialisedProject,
  interruptedNotice,
  type Location,
  lookupProject,
  personalHome,
  personalStoreAt,
  type ProjectLookup,
  projectStoreError,
  rel,
  type Store,
  type WritableStore,
} from './layout.js'
import type {SettingsText} from './settings/settings-files.js'
import {type StoreSummaries, summariseStore} from './cards/summary-cache.js'
import {projectKeyOf} from './repo.js'
import type {AfterCommit, ChangeSet, TxMeta, TxResult} from './cards/transaction.js'
import type {PendingFacts} from './agents/hook-facts.js'
import type {LocalFiles} from './agents/local-files.js'
import type {BoardFiles} from './board/board-files.js'
import type {InputFiles} from './files/input.js'
import type {OutputDir} from './board/output-dir.js'
import type {SourceFiles} from './files/source-read.js'
import type {CardChecks} from './cards/card-checks.js'
import type {RepoFiles} from './files/repo-files.js'
import type {CodeFacts} from './code/code-facts.js'
import type {CardSearch} from './cards/card-search.js'
import type {AgentFiles} from './agents/agent-port.js'
import type {StoreFacts} from './health.js'
import type {ScratchRepo} from './init-repo.js'
import type {Signal} from '../recall/match/signals.js'
import type {GitHubApi} from './github/github-api.js'
import type {NpmRegistry} from './npm/npm-registry.js'

/** How a front end's Context looks its actor up (ContextOptions.lookupActor): git's user.name. */
export {gitUserName} from './git.js'
/**
 * Where a store's files are, computed from a Store or the context, and the project's key: re-exported as they
 * are, since they write nothing and load nothing (projectKeyOf reads the origin remote from .git/config itself).
 */
export {abs, configRel, feedsRecall, layerOf, personalHome, rel, signalsRel, storeDir, writable} from './layout.js'
export type {StoreKind, WritableStore} from './layout.js'
export {projectKeyOf} from './repo.js'

export type StoreChoice = 'project' | 'personal' | 'all'

/**
 * The agent files' port (what Stores.agents hands out; the same for every context), loaded on first use: for a module
 * that must have it synchronously from its start. app/agent-target.ts is one: install and uninstall resolve their
 * target synchronously.
 */
export const loadAgentFiles = async (): Promise<AgentFiles> => (await import('./agents/agent-port.js')).agentFiles

/**
 * The one door to disk and git for a command: it chooses the project and personal stores once,
 * carries their config and the one project key, answers layout questions, names the git
 * queries the app asks, and opens transactions. Built per call of an app function.
 *
 * What is kept outside the card files comes through ports it hands out, grouped by what they keep
 * (a store's local files, its board, ...). Each port's modules load when it is first asked for, so
 * a command that never asks for one never loads them (the hooks and a cached list are timed).
 */
export interface Stores {
  readonly ctx: Context
  /** The initialised project store around ctx.cwd; never the personal store. */
  readonly project: WritableStore | undefined
  /** The personal store, when it exists as an initialised repo. */
  readonly personal: WritableStore | undefined
  /** The project store, or the precise exit-3 error (not a repo, not initialised, a dotfiles home). */
  requireProject(): WritableStore
  /** The repo around ctx.cwd whose .cairn/ may be initialised (for init). */
  projectCandidate(): WritableStore
  /** The stores there are, project first (a read's order); none when neither exists (a hook then says nothing). Never throws. */
  existing(): WritableStore[]
  /** The git work-tree root around ctx.cwd, if any, initialised or not. */
  repoRoot(): string | undefined
  /** The personal store's git repo, created if missing (its store files may not exist yet). */
  personalRepo(): Promise<WritableStore>
  /** The personal store, created (git repo and store files) on first use. */
  ensurePersonal(): Promise<WritableStore>
  /** Writes the files a store lacks (config, .gitignore, .gitattributes) in one commit. */
  initialise(store: Store, noCommit?: boolean): Promise<{created: boolean; files: string[]; commit: string | null}>
  /**
   * A throwaway git repository (and a context inside it, HOME and CAIRN_HOME too) for the demo and the recall evals:
   * nothing done there reaches the user's own repository or home. With a first file, it gets an initial commit.
   */
  scratchRepo(options: {name: string; actor: string; now?: Date; firstFile?: [string, string]}): Promise<ScratchRepo>
  /** Stores a read looks at, project first so its copy wins on a clash. */
  readable(choice?: StoreChoice): WritableStore[]
  /**
   * Every layer whose cards a reader shows, in precedence order: the project, its org layers (config order, each
   * whose cache has the pinned commit), then the personal store. An org layer is read-only (writable refuses it).
   */
  layers(): Store[]
  /** The project's org pins as config.yaml has them now (store/org/pins.ts); none without a project store. */
  orgPins(): Promise<OrgPin[]>
  /** The org layers' shared cache under $CAIRN_HOME: fetch, trees at pinned commits, the cards a commit has. */
  orgCache(): Promise<typeof import('./org/org-cache.js')>
  /** What doctor checks about an org layer's cache and remote, and its repair (store/org/org-health.ts). */
  orgHealth(): Promise<typeof import('./org/org-health.js')>
  /** Logs, once per layer and commit, the org layers a hook leaves out because their cache is missing. */
  logMissingOrgLayers(missing: OrgPin[]): Promise<void>
  /** The store's config; the schema behind it loads on the first call. */
  config(store: Store): Promise<Config>
  /** This project's key: config project_key, else the origin remote's; lowercase. */
  projectKey(): Promise<string | null>
  /** Whether a write commits, and runs hooks, in this store. */
  commitOptions(store: Store, noCommit?: boolean): Promise<{commit: boolean; verify: boolean}>
  cardPath(store: Store, location: 'pending' | 'cards', type: CardType, id: string): string
  list(store: Store, options?: {archive?: boolean}): CardFile[]
  loadAll(store: Store, options?: {archive?: boolean}): ReturnType<typeof loadStore>
  /** Every card file with what list shows of it (summary-cache.ts), and the files that are no card. */
  summaries(store: Store, options?: {archive?: boolean}): Promise<StoreSummaries>
  find(store: Store, id: string, options?: {archive?: boolean}): CardFile[]
  /** One card by id: project before personal, live before archived (the newest archive). Exit 4 if none. */
  findCard(id: string, options?: {store?: StoreChoice; archive?: boolean}): Promise<LoadedCard>
  load(file: CardFile): Promise<LoadedCard>
  /** Whether a store file exists (repo-relative path). */
  exists(store: Store, relPath: string): boolean
  /** The repo-relative paths, of those given, that nothing in the store's working tree is at (no file, folder or link). */
  missing(store: Store, relPaths: string[]): string[]
  /** The card file's text as it is on disk. */
  text(file: CardFile): string
  /** Card files of a location (cards/ by default) across the given stores. */
  count(stores: Store[], location?: Location): number
  addedSince(store: Store, ref: string): Promise<Set<string>>
  /** Active card files changed in place since ref (where HEAD's history and ref's meet), with their text there. */
  changedCardsSince(store: Store, ref: string): Promise<{path: string; before: string}[]>
  /** Whether the working tree changed anything in the store since where HEAD's history and ref's meet. */
  storeChangedSince(store: Store, ref: string): Promise<boolean>
  /** The commit HEAD is at; null before the first commit. */
  headCommit(store: Store): Promise<string | null>
  /** config.yaml and signals.yaml as the commit ref names has them (a pull request's base). */
  settingsAt(store: Store, ref: string): Promise<SettingsText[]>
  /** config.yaml and signals.yaml as the working tree has them. */
  settingsInTree(store: Store): Promise<SettingsText[]>
  /** The CODEOWNERS file (the first of GitHub's places) the commit ref names has; null if none. */
  codeOwnersAt(store: Store, ref: string): Promise<{file: string; text: string} | null>
  /** Every file the tree of the commit ref names holds, repo-relative. */
  filesAt(store: Store, ref: string): Promise<string[]>
  lastCommitTimes(store: Store, paths: string[]): Promise<Map<string, string>>
  status(store: Store): Promise<string[]>
  /** Cairn commits on HEAD, newest first, with their trailers read back. */
  logByTrailer(store: Store): Promise<CairnCommit[]>
  /** The import source keys of the pending cards a reviewer rejected (HEAD's history): an import skips them. */
  rejectedSources(store: Store): Promise<Set<string>>
  /** The text each card had when it was proposed (its latest addition under pending/), by id, where git has it. */
  asProposed(store: Store, ids: string[]): Promise<Map<string, string>>
  /** Warns (through ctx.warn) that a write was interrupted in these stores, naming the fix. */
  noteInterrupted(stores?: Store[]): void
  /** Finishes or rolls back an interrupted write in this store now; says which, or null. */
  recover(store: Store): Promise<string | null>
  /** What `cairn doctor` reports of a store: config, ignore rules, line endings, repo state, locks, a journal, leftovers. */
  inspect(store: Store): Promise<StoreFacts>
  /** Removes the temp files interrupted writes left in the store, under its lock; returns how many. */
  removeLeftovers(store: Store): Promise<number>
  /**
   * recover, when the store's journal says a write was interrupted; null, loading no transaction module, when none
   * was. A journal cairn cannot read is refused (conflict).
   */
  recoverInterrupted(store: Store): Promise<string | null>
  /**
   * Registers a step every later transaction of these stores runs once it has committed and released
   * its locks (derived data such as the recall index); returns the stores, so opening can chain it.
   */
  afterCommit(step: AfterCommit): Stores
  /** One transaction over one or more stores: one commit per store, all or none; then the after-commit steps. */
  tx<T>(meta: TxMeta, build: (tx: ChangeSet) => T | Promise<T>): Promise<TxResult<T>>

  // The ports, and facts read past the card files.
  /** The store's machine-local files (.local/, never committed): the event ledger and usage, the .pending-fix marker, agent sessions. */
  local(store: Store): Promise<LocalFiles>
  /** The store's board: its batch records, the replay's cache, what git knows of the records. */
  board(store: Store): Promise<BoardFiles>
  /** Input the user names: a --file or "-" for stdin, paths to lint, an eval suite (relative to ctx.cwd). */
  input(): Promise<InputFiles>
  /**
   * A directory of files handed to the user, outside any store (never committed; each file replaced atomically),
   * and the shipped font. With `stale`, it is created and earlier files matching `stale` are removed.
   */
  output(dir: string, stale?: RegExp): Promise<OutputDir>
  /** An import's sources: files and folders found and read safely, within the import's caps. */
  sources(): Promise<SourceFiles>
  /** The project's own signals (signals.yaml); none without a store or the file. An invalid file throws a validation error. */
  signals(store: Store | undefined): Promise<Signal[]>
  /** Lint's reads: card files at any path (the parser loads with it) and the secret scan. */
  cardChecks(): Promise<CardChecks>
  /** Files in the store's work tree that exports own or share with the user (AGENTS.md, .cursor/rules/): never committed. */
  repoFiles(store: Store): Promise<RepoFiles>
  /** The agent clients' files (settings, skills), install's records of them, and cairn's workflow files: never committed. */
  agents(): Promise<AgentFiles>
  /** How many cards wait in pending/ and since when, from listings and each file's head: no parser, no git (the hooks' deadline). */
  pendingFacts(store: Store): Promise<PendingFacts>
  /** Whether the store has a board (any batch record), from one listing. */
  hasBoard(store: Store): Promise<boolean>
  /** The project's code as the staleness check and propose's evidence read it: diffs, symbols, paths. */
  code(store: Store): Promise<CodeFacts>
  /** What only GitHub's API can answer (team membership), through `gh api` with the environment's token. */
  github(): Promise<GitHubApi>
  /** Whether a version of a package is on the npm registry the workflows install from. */
  npmRegistry(): Promise<NpmRegistry>
  /** Full-text search of card files and board records: ripgrep, or the same search in Node when rg is missing. */
  cardSearch(): Promise<CardSearch>
}

export function openStores(ctx: Context): Stores {
  let lookup: ProjectLookup | undefined
  const found = () => (lookup ??= lookupProject(ctx))
  const project = () => initialisedProject(ctx, found())
  const personal = () => existingPersonal(ctx)
  const config = configReader()
  // Loaded on first use, so a read the card cache answers (list) loads no transaction module.
  const transactions = () => import('./cards/transaction.js')
  const afterCommit: AfterCommit[] = []
  let key: string | null | undefined
  const stores: Stores = {
    ctx,
    get project() {
      return project()
    },
    get personal() {
      return personal()
    },
    requireProject() {
      const s = project()
      if (!s) throw projectStoreError(ctx, found())
      return s
    },
    projectCandidate() {
      const f = found()
      if (!f.store) throw projectStoreError(ctx, f)
      return f.store
    },
    existing: () => [project(), personal()].filter((s): s is WritableStore => !!s),
    repoRoot: () => found().root,
    async personalRepo() {
      const home = personalHome(ctx)
      await (await import('./init-repo.js')).createPersonalRepo(ctx, home)
      return personalStoreAt(home)
    },
    async ensurePersonal() {
      const s = await stores.personalRepo()
      if (!isInitialised(s)) await stores.initialise(s)
      return s
    },
    initialise: (s, noCommit) => initialise(stores, s, noCommit),
    scratchRepo: async options => (await import('./init-repo.js')).scratchRepo(ctx, options),
    readable: choice => readable(stores, choice),
    ...orgReads(ctx, project, personal),
    config,
    async projectKey() {
      if (key === undefined) {
        const proj = project()
        key = projectKeyOf(found().root, proj ? (await config(proj)).project_key : null)
      }
      return key
    },
    commitOptions: async (s, noCommit) => commitOptionsOf(await config(s), noCommit),
    ...cardReads(() => stores),
    ...gitQueries(ctx),
    ...ports(ctx),
    noteInterrupted(list) {
      for (const s of list ?? stores.readable()) {
        const notice = interruptedNotice(s)
        if (notice) ctx.warn(notice)
      }
    },
    recover: async s => (await transactions()).recoverStore(ctx, s),
    recoverInterrupted: async s => ((await import('./cards/journal.js')).readJournal(s) ? stores.recover(s) : null),
    inspect: async s => (await import('./health.js')).inspectStore(ctx, s),
    removeLeftovers: async s => (await import('./health.js')).removeLeftovers(s),
    afterCommit(step) {
      afterCommit.push(step)
      return stores
    },
    tx: async (meta, build) =>
      (await transactions()).transaction(
        ctx,
        {...meta, commitOptions: s => stores.commitOptions(s, meta.noCommit), afterCommit},
        build,
      ),
  }
  return stores
}

const commitOptionsOf = (c: Config, noCommit?: boolean) => ({
  commit: c.commit.enabled && !noCommit,
  verify: c.commit.verify,
})

type OrgReads = Pick<Stores, 'layers' | 'orgPins' | 'orgCache' | 'orgHealth' | 'logMissingOrgLayers'>

/** The org layers (store/org/): the pins from a small cache file, the trees in $CAIRN_HOME's cache. */
function orgReads(
  ctx: Context,
  project: () => WritableStore | undefined,
  personal: () => WritableStore | undefined,
): OrgReads {
  const pins = () => import('./org/pins.js')
  return {
    layers() {
      const p = project()
      return [p, ...orgLayersOf(ctx, p), personal()].filter((s): s is Store => !!s)
    },
    async orgPins() {
      const p = project()
      return p ? (await pins()).refreshPins(p) : []
    },
    orgCache: () => import('./org/org-cache.js'),
    orgHealth: () => import('./org/org-health.js'),
    async logMissingOrgLayers(missing) {
      const p = project()
      if (p) (await pins()).logMissingOnce(p, missing)
    },
  }
}

/** Each store's config, read once; the schema behind it (zod, YAML) loads on the first call, so a list the card cache answers never loads it. */
function configReader(): (s: Store) => Promise<Config> {
  const configs = new Map<string, Config>()
  return async s => {
    const key = `${s.root}\n${s.prefix}`
    let c = configs.get(key)
    if (!c) configs.set(key, (c = (await import('./settings/config.js')).readConfig(s)))
    return c
  }
}

function readable(stores: Stores, choice: StoreChoice = 'all'): WritableStore[] {
  if (choice === 'project') return [stores.requireProject()]
  const p = stores.personal
  if (choice === 'personal') {
    if (!p)
      throw new CairnError(
        'not_initialised',
        'The personal store does not exist yet. Fix: run "cairn init --personal", or propose a card with layer personal',
      )
    return [p]
  }
  const proj = stores.project
  if (!proj && !p) stores.requireProject()
  return [proj, p].filter((s): s is WritableStore => !!s)
}

async function initialise(stores: Stores, s: Store, noCommit?: boolean): ReturnType<Stores['initialise']> {
  const created = !isInitialised(s)
  if (!created) await stores.config(s) // an invalid existing config is reported, never overwritten
  const wanted = await storeFiles(s)
  if (!created && wanted.every(([p]) => fs.existsSync(abs(s, p)))) return {created, files: [], commit: null}
  const summary = created
    ? `initialise the ${s.kind} store`
    : `add ${wanted
        .map(([p]) => p)
        .filter(p => !fs.existsSync(abs(s, p)))
        .join(', ')}`
  const {result: files, commit} = await stores.tx({op: 'init', summary, store: s, noCommit}, tx => {
    const missing = wanted.filter(([p]) => !tx.exists(p))
    for (const [p, content] of missing) tx.write(p, content)
    return missing.map(([p]) => p)
  })
  return {created, files, commit}
}

type CardReads = Pick<
  Stores,
  'cardPath' | 'list' | 'loadAll' | 'summaries' | 'find' | 'findCard' | 'load' | 'text' | 'exists' | 'missing' | 'count'
>

/** The card files of the stores, through the card cache (cards.ts): the parser loads only for a card the cache does not hold. */
function cardReads(self: () => Stores): CardReads {
  return {
    cardPath: (s, location, type, id) => cardRel(s, location, type, id),
    list: (s, options) => listCardFiles(s, options),
    loadAll: (s, options) => loadStore(s, options),
    summaries: (s, options) => summariseStore(s, options),
    find: (s, id, options) => findById(s, id, options),
    async findCard(id, options = {}) {
      assertSafeId(id)
      const choice = options.store ?? 'all'
      const readable = choice === 'all' ? self().layers() : self().readable(choice)
      for (const archived of options.archive ? [false, true] : [false]) {
        for (const s of readable) {
          const hits = findById(s, id, {archive: archived}).filter(h => archived === (h.location === 'archive'))
          if (hits.length > 0) return await loadCardFile(archived ? hits[hits.length - 1] : hits[0])
        }
      }
      // The closest ids by edit distance: a typo in a long slug is the usual cause.
      const known = readable.flatMap(st => listCardFiles(st, {archive: options.archive}).map(f => f.name))
      const {closest, didYouMean} = await import('../domain/suggest.js')
      const suggestions = closest(id, known)
      throw new CairnError(
        'not_found',
        `No card with id "${id}".${didYouMean(suggestions)} Fix: give an id as "cairn list" shows it`,
        {id, suggestions},
      )
    },
    load: f => loadCardFile(f),
    text: readCardText,
    exists: (s, p) => fs.existsSync(abs(s, p)),
    missing: (s, paths) =>
      paths.filter(p => {
        // A path that leaves the repository is nothing the repository holds: never looked up.
        const rel = path.relative(s.root, path.resolve(s.root, p))
        if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return true
        try {
          fs.lstatSync(path.join(s.root, p))
          return false
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code
          return code === 'ENOENT' || code === 'ENOTDIR'
        }
      }),
    count(list, location = 'cards') {
      return list.reduce((n, s) => n + listCardFiles(s).filter(f => f.location === location).length, 0)
    },
  }
}

type GitQueries = Pick<
  Stores,
  | 'addedSince'
  | 'changedCardsSince'
  | 'storeChangedSince'
  | 'headCommit'
  | 'settingsAt'
  | 'settingsInTree'
  | 'codeOwnersAt'
  | 'filesAt'
  | 'rejectedSources'
  | 'asProposed'
  | 'lastCommitTimes'
  | 'status'
  | 'logByTrailer'
>

/**
 * What the app asks git about a store. Each query's module loads on its first call, as the git library itself
 * does (git.ts): the hooks open their stores here and ask git nothing.
 */
function gitQueries(ctx: Context): GitQueries {
  const queries = () => import('./cards/queries.js')
  return {
    addedSince: async (s, ref) => (await queries()).addedSince(ctx, s, ref),
    changedCardsSince: async (s, ref) => (await queries()).changedCardsSince(ctx, s, ref),
    storeChangedSince: async (s, ref) => (await queries()).storeChangedSince(ctx, s, ref),
    headCommit: async s => (await queries()).headCommit(ctx, s),
    // Loaded on first use: the signals file's schema brings zod and YAML, which a hook or a list must not pay for.
    settingsAt: async (s, ref) => (await import('./settings/settings-files.js')).settingsAt(ctx, s, ref),
    settingsInTree: async s => (await import('./settings/settings-files.js')).settingsInTree(s),
    codeOwnersAt: async (s, ref) => (await import('./settings/settings-files.js')).codeOwnersAt(ctx, s, ref),
    filesAt: async (s, ref) => (await queries()).filesAt(ctx, s, ref),
    lastCommitTimes: async (s, paths) => (await queries()).lastCommitTimes(ctx, s, paths),
    status: async s => (await queries()).statusOf(ctx, s),
    logByTrailer: async s => (await import('./cards/history.js')).cairnCommits(ctx, s),
    rejectedSources: async s => (await queries()).rejectedSources(ctx, s),
    asProposed: async (s, ids) => (await queries()).asProposed(ctx, s, ids),
  }
}

type Ports = Pick<
  Stores,
  | 'local'
  | 'board'
  | 'input'
  | 'output'
  | 'sources'
  | 'signals'
  | 'cardChecks'
  | 'repoFiles'
  | 'agents'
  | 'pendingFacts'
  | 'hasBoard'
  | 'code'
  | 'github'
  | 'npmRegistry'
  | 'cardSearch'
>

/** The ports, each loaded on its first use (the hooks load only those their event uses). */
function ports(ctx: Context): Ports {
  const hookFacts = () => import('./agents/hook-facts.js')
  return {
    local: async s => (await import('./agents/local-files.js')).openLocalFiles(s),
    board: async s => (await import('./board/board-files.js')).openBoardFiles(ctx, s),
    input: async () => (await import('./files/input.js')).openInput(ctx),
    output: async (dir, stale) => (await import('./board/output-dir.js')).openOutputDir(dir, stale),
    sources: async () => (await import('./files/source-read.js')).openSources(ctx),
    cardChecks: async () => (await import('./cards/card-checks.js')).openCardChecks(),
    repoFiles: async s => (await import('./files/repo-files.js')).openRepoFiles(s.root),
    agents: loadAgentFiles,
    // The signals file's schema brings zod and YAML: loaded on the first call that has a store to read.
    signals: async s => (s ? (await import('./settings/signals.js')).readProjectSignals(s) : []),
    pendingFacts: async s => (await hookFacts()).pendingFacts(s),
    hasBoard: async s => (await hookFacts()).hasBoard(s),
    code: async s => (await import('./code/code-facts.js')).openCodeFacts(ctx, s),
    github: async () => (await import('./github/github-api.js')).openGitHubApi(ctx),
    npmRegistry: async () => (await import('./npm/npm-registry.js')).openNpmRegistry(ctx),
    cardSearch: async () => (await import('./cards/card-search.js')).openCardSearch(ctx),
  }
}

/** The files every store has, with the content init writes. */
async function storeFiles(s: Store): Promise<[string, string][]> {
  const {DEFAULT_CONFIG_YAML, STORE_GITATTRIBUTES, STORE_GITIGNORE} = await import('../domain/config.js')
  return [
    [configRel(s), DEFAULT_CONFIG_YAML],
    [rel(s, '.gitignore'), STORE_GITIGNORE],
    [rel(s, '.gitattributes'), STORE_GITATTRIBUTES],
  ]
}

/** Ids reach the file system as names: anything but a plain slug is refused before any lookup. */
export function assertSafeId(id: string): void {
  if (!isSafeId(id)) {
    throw new CairnError(
      'validation',
      `"${id}" is not a valid card id: ids are kebab-case slugs of lowercase letters, digits and single hyphens. Fix: pass the id as "cairn list" shows it`,
      {
        issues: [{field: 'id', message: 'not a kebab-case slug', fix: 'pass the id as "cairn list" shows it'}],
      },
    )
  }
}
