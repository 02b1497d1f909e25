import path from 'node:path'
import type {Context} from '../context.js'
import {parseConfig, withOrgPins} from '../domain/config.js'
import {CairnError} from '../domain/errors.js'
import {
  type CardChanges,
  cardChanges,
  changesBody,
  noChanges,
  orgNameFromUrl,
  orgNameProblem,
  type OrgPin,
  orgRefProblem,
  orgUrlProblem,
  pinNamed,
} from '../domain/org.js'
import {parseYaml} from '../domain/yaml.js'
import {configRel, type Stores, type WritableStore} from '../store/stores.js'
import {openStores} from './stores.js'

/**
 * The org layer's use cases (DESIGN: The org layer): subscribe to another repository's cairn store at a pinned
 * commit, list, remove, move the pin, and bring a missing cache. Each change of the pins is one commit of
 * config.yaml; the fetched copies live in the shared cache under $CAIRN_HOME, never in the project.
 */

export interface OrgLayer extends OrgPin {
  /** Whether the cache has the org store at the pinned commit (else its cards are left out until it is fetched). */
  cached: boolean
  /** Active cards at the pinned commit, when cached. */
  cards: number | null
}

export interface OrgAddResult {
  layer: OrgLayer
  commit: string | null
}

export interface OrgMove {
  name: string
  ref: string
  from: string
  to: string
  changes: CardChanges
}

export interface OrgUpdateResult {
  /** Every layer looked at; `from === to` when it was already at the ref's head. */
  layers: OrgMove[]
  commit: string | null
}

/** A URL as git will be given it: a local path is made absolute (a project's pin must not depend on its cwd). */
export function normaliseUrl(url: string, cwd: string): string {
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^[^/\\]+:/.test(url)
  return local || path.isAbsolute(url) ? path.resolve(cwd, url) : url
}

const usage = (field: string, problem: string, fix: string) =>
  new CairnError('usage', `${field} ${problem}. Fix: ${fix}`, {field})

const CONFIG_FIX = 'fix config.yaml as the error says, then run the command again'

/** The pins as config.yaml has them inside a transaction, and the text to edit. */
function pinsIn(text: string | null, file: string): {text: string; pins: OrgPin[]} {
  const source = text ?? ''
  return {text: source, pins: parseConfig(parseYaml(source, file), file).org}
}

async function layerOf(stores: Stores, pin: OrgPin): Promise<OrgLayer> {
  const store = stores.layers().find(s => s.org?.name === pin.name && s.org.commit === pin.commit)
  const cards = store ? stores.list(store).filter(f => f.location === 'cards').length : null
  return {...pin, cached: !!store, cards}
}

/**
 * Fetches the URL into the shared cache and makes the tree of `commit` (or of the ref's head), under the cache's
 * lock; returns the commit.
 */
async function fetchPin(
  ctx: Context,
  stores: Stores,
  pin: {url: string; ref: string; commit?: string},
): Promise<string> {
  const cache = await stores.orgCache()
  return cache.withOrgCache(ctx, pin.url, async dir => {
    if (!pin.commit || !(await cache.hasCommit(ctx, dir, pin.commit))) await cache.fetchInto(ctx, dir, pin.url)
    const commit = pin.commit ?? (await cache.resolveRef(ctx, dir, pin.url, pin.ref))
    if (!(await cache.hasCommit(ctx, dir, commit)))
      throw new CairnError(
        'not_found',
        `${pin.url} no longer has the pinned commit ${commit.slice(0, 12)}, and the cache never fetched it. Fix: run "cairn org update" to pin the head of ${pin.ref}`,
        {url: pin.url, commit},
      )
    await cache.makeTree(ctx, dir, pin.url, commit)
    return commit
  })
}

/**
 * The project store, with a write a kill -9 interrupted finished or rolled back first: the pins are read from
 * config.yaml, and a pin written but never committed must not pass for the one the project reads.
 */
async function openProject(ctx: Context): Promise<{stores: Stores; project: WritableStore}> {
  const stores = openStores(ctx)
  const project = stores.requireProject()
  const recovered = await stores.recoverInterrupted(project)
  if (recovered) ctx.warn(recovered)
  return {stores, project}
}

export async function orgAdd(
  ctx: Context,
  input: {url: string; name?: string; ref?: string; noCommit?: boolean},
): Promise<OrgAddResult> {
  const {stores, project} = await openProject(ctx)
  const urlProblem = orgUrlProblem(input.url)
  if (urlProblem) throw usage('The URL', urlProblem, 'pass the URL you would give "git clone"')
  const url = normaliseUrl(input.url, ctx.cwd)
  const name = input.name ?? orgNameFromUrl(url)
  const nameProblem = orgNameProblem(name)
  if (nameProblem) throw usage('--name', nameProblem, 'pass --name with a name such as "acme-platform"')
  if (input.ref !== undefined) {
    const refProblem = orgRefProblem(input.ref)
    if (refProblem) throw usage('--ref', refProblem, 'pass a branch or tag such as main')
  }
  const existing = await stores.orgPins()
  clash(existing, name, url)
  const cache = await stores.orgCache()
  const {ref, commit} = await cache.withOrgCache(ctx, url, async dir => {
    await cache.fetchInto(ctx, dir, url)
    const ref = input.ref ?? (await cache.defaultBranch(ctx, dir, url))
    if (!ref)
      throw new CairnError(
        'not_found',
        `${url} has no default branch cairn can tell. Fix: pass --ref with the branch the org store is reviewed on`,
      )
    const commit = await cache.resolveRef(ctx, dir, url, ref)
    await cache.makeTree(ctx, dir, url, commit)
    return {ref, commit}
  })
  const pin: OrgPin = {name, url, ref, commit}
  const {commit: made} = await writePins(stores, project, {
    summary: `add org layer ${name} at ${commit.slice(0, 12)}`,
    noCommit: input.noCommit,
    edit: pins => {
      clash(pins, name, url)
      return [...pins, pin]
    },
  })
  await stores.orgPins()
  return {layer: await layerOf(stores, pin), commit: made}
}

/** Refuses a second layer of the same name or URL. */
function clash(pins: readonly OrgPin[], name: string, url: string): void {
  const same = pins.find(p => p.name === name) ?? pins.find(p => p.url === url)
  if (!same) return
  throw new CairnError(
    'conflict',
    same.name === name
      ? `The project already has an org layer named "${name}" (${same.url}). Fix: pass --name with another name, or run "cairn org remove ${name}" first`
      : `The project already reads ${url} as the org layer "${same.name}". Fix: run "cairn org update ${same.name}" to move its pin`,
    {name: same.name, url: same.url},
  )
}

/** One commit of config.yaml with its org list edited; the edit runs on the list as the lock finds it. */
async function writePins(
  stores: Stores,
  project: WritableStore,
  meta: {summary: string; body?: string; noCommit?: boolean; edit: (pins: OrgPin[]) => OrgPin[] | null},
): Promise<{commit: string | null; pins: OrgPin[] | null}> {
  const file = configRel(project)
  const {result, commit} = await stores.tx(
    {op: 'org', summary: meta.summary, body: meta.body, store: project, noCommit: meta.noCommit},
    tx => {
      const {text, pins} = pinsIn(tx.read(file), file)
      const next = meta.edit(pins)
      if (next) tx.write(file, withOrgPins(text, next, file))
      return next
    },
  )
  return {commit: result ? commit : null, pins: result}
}

export async function orgList(ctx: Context): Promise<{layers: OrgLayer[]}> {
  const stores = openStores(ctx)
  stores.requireProject()
  const pins = await stores.orgPins()
  return {layers: await Promise.all(pins.map(p => layerOf(stores, p)))}
}

export async function orgRemove(
  ctx: Context,
  input: {name: string; noCommit?: boolean},
): Promise<{removed: OrgPin; commit: string | null}> {
  const {stores, project} = await openProject(ctx)
  const removed = pinNamed(await stores.orgPins(), input.name)
  const {commit} = await writePins(stores, project, {
    summary: `remove org layer ${input.name}`,
    noCommit: input.noCommit,
    edit: pins => {
      pinNamed(pins, input.name)
      return pins.filter(p => p.name !== input.name)
    },
  })
  await stores.orgPins()
  return {removed, commit}
}

/** Fetches each selected layer and moves its pin to its ref's head, in one commit listing the cards each brings. */
export async function orgUpdate(ctx: Context, input: {name?: string; noCommit?: boolean}): Promise<OrgUpdateResult> {
  const {stores, project} = await openProject(ctx)
  const pins = await stores.orgPins()
  const selected = input.name ? [pinNamed(pins, input.name)] : pins
  if (selected.length === 0)
    throw new CairnError(
      'not_found',
      'The project has no org layer to update. Fix: subscribe with "cairn org add <url>"',
    )
  const layers: OrgMove[] = []
  for (const pin of selected) {
    const to = await fetchPin(ctx, stores, {url: pin.url, ref: pin.ref})
    const changes = cardChanges(
      (await cardsAt(ctx, stores, pin.url, pin.commit, {fetch: false})) ?? new Map(),
      (await cardsAt(ctx, stores, pin.url, to, {fetch: false})) ?? new Map(),
    )
    layers.push({name: pin.name, ref: pin.ref, from: pin.commit, to, changes})
  }
  const moves = layers.filter(l => l.from !== l.to)
  if (moves.length === 0) return {layers, commit: null}
  const summary =
    moves.length === 1
      ? `update org layer ${moves[0].name} to ${moves[0].to.slice(0, 12)}`
      : `update ${moves.length} org layers`
  const already = new Set<string>()
  const {commit} = await writePins(stores, project, {
    summary,
    body: changesBody(
      moves.map(m => ({pin: {...pinNamed(pins, m.name), commit: m.to}, from: m.from, changes: m.changes})),
    ),
    noCommit: input.noCommit,
    edit: current => {
      // Another update moved a pin meanwhile: a pin already at the target stays; one moved elsewhere is refused.
      already.clear()
      const next = current.map(p => {
        const m = moves.find(x => x.name === p.name)
        if (m && p.commit === m.to) already.add(p.name)
        if (!m || p.commit === m.to) return p
        if (p.commit !== m.from)
          throw new CairnError(
            'conflict',
            `The org layer "${p.name}" moved to ${p.commit.slice(0, 12)} while this update ran. Nothing was written. Fix: run "cairn org update ${p.name}" again`,
          )
        return {...p, commit: m.to}
      })
      return next.some((p, i) => p.commit !== current[i].commit) ? next : null
    },
  })
  await stores.orgPins()
  // A pin another update already moved to the same commit is reported as this run found it: already there.
  const moved = layers.map(l =>
    already.has(l.name) ? {...l, from: l.to, changes: cardChanges(new Map(), new Map())} : l,
  )
  return {layers: moved, commit}
}

/** Brings the cache of every pinned layer it lacks, without moving a pin: what CI runs before it reads cards. */
export async function orgFetch(ctx: Context): Promise<{layers: OrgLayer[]}> {
  const stores = openStores(ctx)
  stores.requireProject()
  const pins = await stores.orgPins()
  for (const pin of pins) await fetchPin(ctx, stores, pin)
  return {layers: await Promise.all(pins.map(p => layerOf(stores, p)))}
}

/** Fetches the caches of these pins, each left out with a warning when it cannot be (org-prelude.ts). */
export async function fetchMissing(ctx: Context, missing: readonly OrgPin[]): Promise<void> {
  const stores = openStores(ctx)
  for (const pin of missing) {
    try {
      await fetchPin(ctx, stores, pin)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      ctx.warn(`The org layer "${pin.name}" is left out: its cache is missing and could not be fetched. ${reason}`)
    }
  }
}

/**
 * The active cards of the org store at URL and commit (id → blob id), from the shared cache under its lock; with
 * fetch, the URL is fetched first when the cache lacks the commit. Null when the cache does not have it (then).
 */
async function cardsAt(
  ctx: Context,
  stores: Stores,
  url: string,
  commit: string,
  options: {fetch: boolean},
): Promise<Map<string, string> | null> {
  const cache = await stores.orgCache()
  return cache.withOrgCache(ctx, url, async dir => {
    if (!(await cache.hasCommit(ctx, dir, commit)) && options.fetch)
      await cache.fetchInto(ctx, dir, url).catch(() => undefined)
    return (await cache.hasCommit(ctx, dir, commit)) ? cache.activeCardsAt(ctx, dir, commit) : null
  })
}

/** How one org layer's pin differs between two org lists: a layer subscribed (from null), removed (to null) or moved. */
export interface OrgPinChange {
  name: string
  url: string
  ref: string
  from: string | null
  to: string | null
  /** The active cards the change brings, as `cairn org update` lists them; null when the cache cannot tell. */
  changes: CardChanges | null
}

/**
 * The pin changes from one org list to another (a pull request's base and head: cairn ci review), each with the cards
 * it brings, by the listing `cairn org update` makes. A commit the cache lacks is fetched; one no remote has leaves
 * the layer's cards unknown.
 */
export async function orgPinChanges(ctx: Context, before: OrgPin[], after: OrgPin[]): Promise<OrgPinChange[]> {
  const stores = openStores(ctx)
  const out: OrgPinChange[] = []
  const names = [...new Set([...after.map(p => p.name), ...before.map(p => p.name)])]
  for (const name of names) {
    const old = before.find(p => p.name === name)
    const now = after.find(p => p.name === name)
    if (old && now && old.commit === now.commit && old.url === now.url) continue
    const pin = (now ?? old)!
    const side = async (p: OrgPin | undefined) =>
      p ? cardsAt(ctx, stores, p.url, p.commit, {fetch: true}) : new Map<string, string>()
    const [was, is] = [await side(old), await side(now)]
    out.push({
      name,
      url: pin.url,
      ref: pin.ref,
      from: old?.commit ?? null,
      to: now?.commit ?? null,
      changes: was && is ? cardChanges(was, is) : null,
    })
  }
  return out
}
