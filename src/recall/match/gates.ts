import {createRequire} from 'node:module'
import {inModule} from '../../domain/card/scope-paths.js'
import {normalizeProjectKey} from '../../domain/project-key.js'
import type {MatchDoc} from './doc.js'
import {phraseOccurrences} from './phrase.js'
import type {PromptView} from './prompt.js'
import type {Registry} from './signals.js'

/** Hard gates: a card that fails any of them is out, whatever its score. */
export interface Gate {
  gate: 'scope' | 'module_path' | 'paths' | 'ignore_when' | 'positive' | 'required_all' | 'negative'
  pass: boolean
  detail: string
}

export interface GateEnv {
  registry: Registry
  /** This project's key (config project_key, else the origin remote), or null. */
  projectKey: string | null
}

const require = createRequire(import.meta.url)
type Matcher = (p: string) => boolean
let picomatch: ((glob: string, options?: object) => Matcher) | undefined
const matchers = new Map<string, Matcher>()

/** picomatch loads only when a narrow card meets a request with paths: most prompts never need it. */
function globMatcher(glob: string): Matcher {
  let m = matchers.get(glob)
  if (!m) {
    picomatch ??= require('picomatch') as typeof picomatch
    m = picomatch!(glob, {dot: true})
    matchers.set(glob, m)
  }
  return m
}

export {inModule}

/** Whether a repo-relative path matches any of a card's scope.paths globs. */
export const globsMatch = (globs: readonly string[], p: string): boolean => globs.some(g => globMatcher(g)(p))

/** "host/owner" of a "host/owner/repo" key: the project family. */
export const familyOf = (key: string): string => key.split('/').slice(0, 2).join('/')

/** Reads only where the card lives and its scope, so the session hooks' light entries pass too. */
export function scopeGate(
  doc: Pick<MatchDoc, 'store'> & {scope: Pick<MatchDoc['scope'], 'level' | 'project_key'>},
  env: Pick<GateEnv, 'projectKey'>,
): Gate {
  const {level} = doc.scope
  // Cards written before keys were normalised may spell the key with capitals or ".git". A list names every project
  // the card applies to (an org card shared by some of the organisation's repositories).
  const given = doc.scope.project_key
  const keys = (given === null ? [] : Array.isArray(given) ? given : [given])
    .map(k => normalizeProjectKey(k))
    .filter((k): k is string => k !== null)
  if (level === 'global') return {gate: 'scope', pass: true, detail: 'global'}
  if (keys.length === 0) return {gate: 'scope', pass: true, detail: `${level}, no project key on the card`}
  if (env.projectKey === null) {
    // A card in this project's own store belongs here even when the project has no remote yet.
    const pass = doc.store === 'project'
    return {
      gate: 'scope',
      pass,
      detail: `${level} ${keys.join(', ')}; this project has no key${pass ? ', card is in its store' : ''}`,
    }
  }
  const here = env.projectKey
  const shown = level === 'project' ? keys : [...new Set(keys.map(familyOf))]
  const pass = level === 'project' ? keys.includes(here) : shown.includes(familyOf(here))
  return {gate: 'scope', pass, detail: `${level} ${shown.join(', ')} vs ${here}`}
}

export function pathGates(doc: MatchDoc, pv: PromptView): Gate[] {
  if (pv.paths.length === 0) return []
  const out: Gate[] = []
  const mod = doc.scope.module_path?.replace(/\/+$/, '')
  if (mod) {
    const hit = pv.paths.find(p => inModule(mod, p))
    out.push({
      gate: 'module_path',
      pass: !!hit,
      detail: hit ? `${hit} is under ${mod}` : `no request path under ${mod}`,
    })
  }
  if (doc.scope.paths.length) {
    const hit = pv.paths.find(p => globsMatch(doc.scope.paths, p))
    out.push({
      gate: 'paths',
      pass: !!hit,
      detail: hit
        ? `${hit} matches ${doc.scope.paths.join(', ')}`
        : `no request path matches ${doc.scope.paths.join(', ')}`,
    })
  }
  return out
}

export function ignoreGate(doc: MatchDoc, pv: PromptView): Gate {
  const hit = doc.ignores.find(p => phraseOccurrences(pv.text, p.norm).length > 0)
  return hit
    ? {gate: 'ignore_when', pass: false, detail: `prompt contains "${hit.text}"`}
    : {gate: 'ignore_when', pass: true, detail: 'no ignore_when phrase in the prompt'}
}

export function hintGates(doc: MatchDoc, pv: PromptView, env: GateEnv): Gate[] {
  const out: Gate[] = []
  const known = (ids: string[]) => ids.filter(id => env.registry.signals.has(id))
  const unknown = (ids: string[]) => ids.filter(id => !env.registry.signals.has(id))
  const note = (ids: string[]) => (unknown(ids).length ? `; ignored unknown ${unknown(ids).join(', ')}` : '')
  const positive = known(doc.hints.positive)
  const gating = positive.filter(id => env.registry.signals.get(id)!.gating)
  if (doc.hints.positive.length) {
    const fired = positive.filter(id => pv.signals.has(id))
    const pass = gating.length === 0 || fired.length > 0
    out.push({
      gate: 'positive',
      pass,
      detail: `${fired.length ? `fired ${fired.join(', ')}` : gating.length ? `none of ${gating.join(', ')} fired` : 'no gating signal'}${note(doc.hints.positive)}`,
    })
  }
  if (doc.hints.required_all.length) {
    const need = known(doc.hints.required_all)
    const missing = need.filter(id => !pv.signals.has(id))
    out.push({
      gate: 'required_all',
      pass: missing.length === 0,
      detail: `${missing.length ? `missing ${missing.join(', ')}` : need.length ? `all of ${need.join(', ')} fired` : 'nothing known to require'}${note(doc.hints.required_all)}`,
    })
  }
  if (doc.hints.negative.length) {
    const routes = new Set([...doc.hints.positive, ...doc.hints.required_all])
    const blocking = known(doc.hints.negative).filter(
      id => pv.signals.has(id) && env.registry.signals.get(id)!.targets.some(t => routes.has(t)),
    )
    out.push({
      gate: 'negative',
      pass: blocking.length === 0,
      detail: `${blocking.length ? `${blocking.join(', ')} fired and suppresses this card` : 'no suppressing signal fired'}${note(doc.hints.negative)}`,
    })
  }
  return out
}

export function gates(doc: MatchDoc, pv: PromptView, env: GateEnv): Gate[] {
  return [scopeGate(doc, env), ...pathGates(doc, pv), ignoreGate(doc, pv), ...hintGates(doc, pv, env)]
}
