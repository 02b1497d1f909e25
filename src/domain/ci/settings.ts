import {type Config, DEFAULT_CONFIG, parseConfig} from '../config.js'
import {CairnError, type Issue, validationError} from '../errors.js'
import {parseYaml} from '../yaml.js'

/**
 * The settings of a pull request's review check. The base branch governs (DESIGN: Team review):
 * the check reads config.yaml from the base, and a change the pull request makes to its settings
 * files is shown in the comment, never obeyed by its own check.
 */

/** A settings file as the base has it and as the pull request has it; null where there is no such file. */
export interface SettingsFile {
  file: string
  base: string | null
  head: string | null
}

/** One setting that differs: values as JSON, null where the side does not set it. */
export interface KeyChange {
  key: string
  before: string | null
  after: string | null
}

/** changes: null when one side is not YAML; an empty list when only comments or layout changed. */
export interface SettingsChange {
  file: string
  changes: KeyChange[] | null
}

/** The base's config.yaml as the check's settings; no file at the base means every default. */
export function governingConfig(text: string | null, file: string, base: string): Config {
  if (text === null) return DEFAULT_CONFIG
  const label = `${file} at ${base}`
  try {
    return parseConfig(parseYaml(text, label), label)
  } catch (error) {
    if (!(error instanceof CairnError) || error.code !== 'validation') throw error
    const issues = (error.data as {issues?: Issue[]} | undefined)?.issues ?? [
      {file: label, field: '(file)', message: error.message},
    ]
    const lead = `${label} is invalid; the base branch's settings govern the review check, so fix them there first`
    throw validationError(issues, lead)
  }
}

/** The settings files the pull request changes, each with the settings that differ. */
export function settingsChanges(files: SettingsFile[]): SettingsChange[] {
  return files.filter(f => f.base !== f.head).map(f => ({file: f.file, changes: keyChanges(f)}))
}

function keyChanges(f: SettingsFile): KeyChange[] | null {
  const base = settingsOf(f.base, f.file)
  const head = settingsOf(f.head, f.file)
  if (!base || !head) return null
  const out: KeyChange[] = []
  for (const key of new Set([...base.keys(), ...head.keys()])) {
    const before = base.get(key) ?? null
    const after = head.get(key) ?? null
    if (before !== after) out.push({key, before, after})
  }
  return out
}

/**
 * Each setting of a file, by its dotted path (review.require_decision, secrets.allow[0]), as JSON;
 * null if not YAML. An empty list or map sets nothing, so adding the first entry is one change.
 */
function settingsOf(text: string | null, file: string): Map<string, string> | null {
  const out = new Map<string, string>()
  if (text === null) return out
  let data: unknown
  try {
    data = parseYaml(text, file)
  } catch (error) {
    if (error instanceof CairnError) return null
    throw error
  }
  leaves(data, '', out, 0)
  return out
}

/** Deeper than this, a value is shown as [...] or {...}: a file nested thousands deep must not exhaust the stack. */
const MAX_DEPTH = 12

function leaves(value: unknown, key: string, out: Map<string, string>, depth: number): void {
  if (value === null || typeof value !== 'object') out.set(key || '(file)', JSON.stringify(value) ?? String(value))
  else if (depth >= MAX_DEPTH) out.set(key, Array.isArray(value) ? '[...]' : '{...}')
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${key}[${i}]`, out, depth + 1))
  else for (const [k, v] of Object.entries(value)) leaves(v, key ? `${key}.${k}` : k, out, depth + 1)
}
