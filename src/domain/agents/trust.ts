import path from 'node:path'
import {type ParseError, parse as parseJsonc} from 'jsonc-parser'
import {parse} from 'smol-toml'
import {CODEX} from './codex.js'
import {isObject} from './json-edit.js'
import {cairnHandlers} from './settings.js'

/**
 * Whether a client will run the hooks install wrote, from the client's own trust records. Pure: the caller reads the
 * files. Sources (checked for this module):
 * - openai/codex `codex-rs/hooks/src/engine/discovery.rs`: a non-managed hook runs only when `hooks.state."<key>"`
 *   in config.toml holds a `trusted_hash` equal to the hook's current hash (or with
 *   `--dangerously-bypass-hook-trust`); the key is `<hooks.json path>:<event in snake case>:<group>:<handler>`.
 *   The hash itself is Codex's, over its normalised form of the handler: cairn can see that one was recorded, and
 *   Codex's /hooks says whether it still matches.
 * - Codex reads a project's `.codex/` only in a project `[projects."<path>"]` marks `trust_level = "trusted"`.
 * - Gemini CLI runs a workspace's hooks only in a trusted folder: `~/.gemini/trustedFolders.json` maps a path to
 *   TRUST_FOLDER (that folder and below), TRUST_PARENT (its parent and below) or DO_NOT_TRUST; of the rules whose
 *   folder holds the workspace, the one with the longest path decides (google-gemini/gemini-cli
 *   `packages/cli/src/config/trustedFolders.ts`, isPathTrusted).
 */

export interface CodexTrust {
  /** Why config.toml cannot be read as TOML: Codex will not start, and trust cannot be told. */
  configError?: string
  /** The keys of cairn's hooks the user turned off (`enabled = false`). */
  disabled: string[]
  /** The project's trust level in config.toml, or null at user scope. */
  projectTrusted: boolean | null
  /** The keys of cairn's hooks Codex has no trusted hash for. */
  untrusted: string[]
  /** All of cairn's hook keys in the file. */
  keys: string[]
}

/** `SessionStart` → `session_start`, as Codex names an event in a hook's key. */
const snake = (event: string) => event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

/**
 * What Codex makes of cairn's hooks in one hooks.json: `hooksFile` is its absolute path (the key's first part), `config`
 * the text of Codex's user config.toml (null when there is none), `project` the repository root at project scope.
 */
export function codexTrust(
  hooksFile: string,
  hooksText: string,
  config: string | null,
  project: string | null,
): CodexTrust {
  const keys = cairnHandlers(hooksText, CODEX, hooksFile).map(
    h => `${hooksFile}:${snake(h.clientEvent)}:${h.group}:${h.handler}`,
  )
  const {toml, error} = readToml(config)
  const states = isObject(toml.hooks) && isObject(toml.hooks.state) ? toml.hooks.state : {}
  const state = (key: string) => (isObject(states[key]) ? states[key] : {})
  const disabled = keys.filter(k => state(k).enabled === false)
  const projects = isObject(toml.projects) ? toml.projects : {}
  const entry = project === null ? undefined : projects[project]
  return {
    ...(error ? {configError: error} : {}),
    projectTrusted: project === null ? null : isObject(entry) && entry.trust_level === 'trusted',
    untrusted: keys.filter(k => !disabled.includes(k) && typeof state(k).trusted_hash !== 'string'),
    disabled,
    keys,
  }
}

function readToml(text: string | null): {toml: Record<string, unknown>; error?: string} {
  if (text === null) return {toml: {}}
  try {
    return {toml: parse(text) as Record<string, unknown>}
  } catch (e) {
    return {toml: {}, error: `it is not valid TOML: ${(e as Error).message.split('\n')[0]}`}
  }
}

/**
 * Whether Gemini CLI trusts the folder, by its trustedFolders.json (null when there is none; a file it cannot parse
 * gives it no rules), and its settings (`security.folderTrust.enabled: false` trusts every folder).
 */
export function geminiTrusted(folder: string, trustedFolders: string | null, settings: string | null = null): boolean {
  const errors: ParseError[] = []
  const options = {allowTrailingComma: true}
  const config: unknown = settings === null ? {} : parseJsonc(settings, [], options)
  const trust = isObject(config) && isObject(config.security) ? config.security.folderTrust : undefined
  if (isObject(trust) && trust.enabled === false) return true
  // Gemini CLI reads the file with comments allowed.
  const rules: unknown = trustedFolders === null ? {} : parseJsonc(trustedFolders, errors, options)
  if (errors.length > 0) return false
  if (!isObject(rules)) return false
  const within = (dir: string) => {
    const rel = path.relative(path.resolve(dir), path.resolve(folder))
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
  }
  // As Gemini CLI's isPathTrusted: of the rules whose folder holds this one, the longest path decides.
  let best: {length: number; trusted: boolean} | null = null
  for (const [dir, level] of Object.entries(rules)) {
    const scope = level === 'TRUST_PARENT' ? path.dirname(path.resolve(dir)) : dir
    if (!within(scope) || (best && dir.length <= best.length)) continue
    best = {length: dir.length, trusted: level === 'TRUST_FOLDER' || level === 'TRUST_PARENT'}
  }
  return best?.trusted ?? false
}
