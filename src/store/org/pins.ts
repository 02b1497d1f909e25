import fs from 'node:fs'
import type {Context} from '../../context.js'
import {COMMIT, type OrgPin} from '../../domain/org.js'
import {parseCanonicalYaml} from '../../domain/card/fast-yaml.js'
import {abs, configRel, rel, type Store} from '../layout.js'
import {readFileIn, readTextIn, SMALL_FILE, writeFileIn} from '../files/store-files.js'
import {logHookError} from '../agents/hook-session.js'
import {localRel} from '../agents/local.js'
import {orgStore} from './org-paths.js'

/**
 * The project's org pins, as the readers need them before anything else: config.yaml's `org:` list, kept in
 * .cache/org-pins.json with the config file's stamp (size, mtime, ctime, inode). A hook reads that small JSON
 * file, never the YAML parser or zod; a front end refreshes it (refreshPins) when the stamp differs, which is only
 * after config.yaml changed.
 */
const PINS = 'org-pins.json'
const pinsRel = (s: Store): string => rel(s, '.cache', PINS)

interface PinsFile {
  stamp: string
  pins: OrgPin[]
}

/** config.yaml's stamp: what changes whenever its bytes may have. */
export function configStamp(project: Store): string {
  try {
    const st = fs.lstatSync(abs(project, configRel(project)), {bigint: true})
    return [st.size, st.mtimeNs, st.ctimeNs, st.ino].join(':')
  } catch {
    return 'none'
  }
}

const isPin = (p: unknown): p is OrgPin => {
  const o = p as Record<string, unknown> | null
  return (
    !!o &&
    typeof o.name === 'string' &&
    typeof o.url === 'string' &&
    typeof o.ref === 'string' &&
    typeof o.commit === 'string' &&
    COMMIT.test(o.commit)
  )
}

function readPinsFile(project: Store): PinsFile | null {
  try {
    const bytes = readFileIn(project.root, pinsRel(project), SMALL_FILE, {noun: 'file', fix: 'remove it'})
    if (!bytes) return null
    const data = JSON.parse(bytes.toString('utf8')) as PinsFile
    if (typeof data.stamp !== 'string' || !Array.isArray(data.pins) || !data.pins.every(isPin)) return null
    return data
  } catch {
    return null
  }
}

/** The pins the cache file holds for config.yaml as it is now; null when the file is missing or config.yaml changed. */
export function cachedPins(project: Store): OrgPin[] | null {
  const file = readPinsFile(project)
  return file && file.stamp === configStamp(project) ? file.pins : null
}

/**
 * Whether config.yaml surely has no org layer, told without the YAML library or zod (which a list the card cache
 * answers never loads): no file, or a file the fast reader reads (it gives exactly what the library gives, or
 * nothing) with no org key or an empty list. Anything else is read by the library.
 */
function noPins(project: Store): boolean {
  try {
    const bytes = readFileIn(project.root, configRel(project), SMALL_FILE, {
      noun: 'file',
      fix: 'keep only settings in it',
    })
    if (bytes === null) return true
    const data = parseCanonicalYaml(bytes.toString('utf8'), true)
    return !!data && (data.org === undefined || (Array.isArray(data.org) && data.org.length === 0))
  } catch {
    return false
  }
}

/**
 * The pins of config.yaml as it is now: from the cache file, else read from config.yaml (loading its parser) and
 * kept. An invalid config.yaml throws its validation error.
 */
export async function refreshPins(project: Store): Promise<OrgPin[]> {
  const cached = cachedPins(project)
  if (cached) return cached
  const stamp = configStamp(project)
  const pins = noPins(project) ? [] : (await import('../settings/config.js')).readConfig(project).org
  // Written only when config.yaml did not change while it was read; a derived file that cannot be kept is no error.
  if (configStamp(project) === stamp) {
    try {
      writeFileIn(project.root, pinsRel(project), `${JSON.stringify({stamp, pins} satisfies PinsFile)}\n`)
    } catch {
      // A read-only checkout, or a linked .cache: read config.yaml again next time.
    }
  }
  return pins
}

/**
 * The org layers a read looks at, in config order: the pins as last kept (cachedPins, or the cache file's pins when
 * config.yaml changed since and no front end refreshed them), each whose tree for its pinned commit is in the cache.
 */
export function orgLayers(ctx: Context, project: Store | undefined): Store[] {
  if (!project) return []
  const pins = cachedPins(project) ?? readPinsFile(project)?.pins ?? []
  return pins.map(p => orgStore(ctx, p)).filter((s): s is Store => !!s)
}

/** The file that remembers which missing caches the hook log already names, one "<name> <commit>" line each. */
const MISSING_LOGGED = 'hook-org-missing-logged'

/**
 * Logs each org layer whose cache lacks its pinned commit to hook-errors.log, once per layer and commit: a hook
 * never fetches, so until a CLI command does, the hooks leave the layer out and say nothing to the agent.
 */
export function logMissingOnce(project: Store, missing: readonly OrgPin[]): void {
  if (missing.length === 0) return
  const file = localRel(project, MISSING_LOGGED)
  let logged: Set<string>
  try {
    logged = new Set((readTextIn(project.root, file, SMALL_FILE) ?? '').split('\n'))
  } catch {
    logged = new Set()
  }
  const key = (p: OrgPin) => `${p.name} ${p.commit}`
  const fresh = missing.filter(p => !logged.has(key(p)))
  if (fresh.length === 0) return
  const at = new Date().toISOString()
  for (const p of fresh)
    logHookError(
      project,
      `${at} org layer "${p.name}" left out: the cache has no copy of ${p.url} at ${p.commit.slice(0, 12)}; the next cairn command fetches it (or run "cairn org fetch")`,
    )
  try {
    writeFileIn(project.root, file, `${missing.map(key).join('\n')}\n`)
  } catch {
    // Unwritable: logged again next time, which is better than never.
  }
}
