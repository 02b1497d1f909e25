import type {JSONPath} from 'jsonc-parser'
import {validationError} from '../errors.js'
import {cairnHookIdentity} from './index.js'
import {isObject, JsonText} from './json-edit.js'
import type {ClientSpec, HookBinding, HookEvent} from './types.js'

/**
 * Merging cairn's hooks into a client's settings, and taking them out again. Never a deep merge
 * (seed 000's trap: it replaces arrays): each cairn handler is appended as its own entry, found
 * again by the cairn event and client its command names, and nothing else in the file is touched.
 */

export interface HookEntry {
  clientEvent: string
  event: HookEvent
  command: string
  /** added: new; updated: a cairn entry for this event had another command; present: already there; removed. */
  action: 'added' | 'updated' | 'present' | 'removed'
}

export interface SettingsPlan {
  text: string
  entries: HookEntry[]
  /** JSON paths this install created (so uninstall removes them, and only them). */
  createdKeys: string[][]
}

/** Where each cairn handler of this client sits: its array, its index there, and its group's. */
interface Found {
  clientEvent: string
  event: HookEvent
  command: string
  /** Path of the handler object. */
  path: JSONPath
  /** Path of the array item to remove when this handler goes (its group, if the group holds only cairn's). */
  itemPath: JSONPath
}

export function planInstall(
  text: string | null,
  spec: ClientSpec,
  commandFor: (e: HookEvent) => string,
  file: string,
): SettingsPlan {
  const doc = new JsonText(text ?? '{}', file, spec.comments)
  const createdKeys: string[][] = []
  const entries: HookEntry[] = []
  hooksObject(doc, file)
  for (const [key, value] of Object.entries(spec.required ?? {})) {
    if (root(doc)[key] === undefined) {
      doc.add([], value, key, true)
      createdKeys.push([key])
    }
  }
  for (const binding of spec.bindings) {
    const command = commandFor(binding.event)
    const have = findCairn(doc, spec).find(f => f.clientEvent === binding.clientEvent && f.event === binding.event)
    if (have) {
      if (have.command !== command) doc.set([...have.path, 'command'], command)
      const action = have.command === command ? 'present' : 'updated'
      entries.push({clientEvent: binding.clientEvent, event: binding.event, command, action})
      continue
    }
    const entry = newEntry(spec, binding, command)
    const hooks = hooksObject(doc, file)
    const list = hooks?.[binding.clientEvent]
    if (hooks === undefined) {
      doc.add([], {[binding.clientEvent]: [entry]}, 'hooks')
      createdKeys.push(['hooks'], ['hooks', binding.clientEvent])
    } else if (list === undefined) {
      doc.add(['hooks'], [entry], binding.clientEvent)
      createdKeys.push(['hooks', binding.clientEvent])
    } else if (Array.isArray(list)) {
      doc.add(['hooks', binding.clientEvent], entry)
    } else {
      const fix = 'make it a JSON array of hook entries, or remove it'
      throw validationError([{file, field: `hooks.${binding.clientEvent}`, message: 'is not an array', fix}])
    }
    entries.push({clientEvent: binding.clientEvent, event: binding.event, command, action: 'added'})
  }
  // A file install creates ends with a newline, as editors write them.
  return {text: text === null ? `${doc.text}\n` : doc.text, entries, createdKeys}
}

export interface UninstallPlan {
  text: string
  entries: HookEntry[]
  /** Nothing but what install creates is left: the file can go, when install created it. */
  empty: boolean
}

/**
 * Removes every cairn handler of this client, then the containers that emptied and that install
 * created (`createdKeys`; unknown means any container this removal emptied).
 */
export function planUninstall(text: string, spec: ClientSpec, file: string, createdKeys?: string[][]): UninstallPlan {
  const doc = new JsonText(text, file, spec.comments)
  const entries: HookEntry[] = []
  const emptied = new Set<string>()
  for (let all = findCairn(doc, spec); all.length > 0; all = findCairn(doc, spec)) {
    // The last first, so the paths of the others stay valid; a whole group takes all its handlers.
    const item = all[all.length - 1].itemPath
    const gone = all.filter(f => f.itemPath.join('\0') === item.join('\0'))
    doc.remove(item)
    for (const f of gone) {
      emptied.add(f.clientEvent)
      entries.push({clientEvent: f.clientEvent, event: f.event, command: f.command, action: 'removed'})
    }
  }
  const created = (path: string[]) => !createdKeys || createdKeys.some(k => k.join('\0') === path.join('\0'))
  for (const clientEvent of emptied) {
    const list = hooksObject(doc, file)?.[clientEvent]
    if (Array.isArray(list) && list.length === 0 && created(['hooks', clientEvent])) doc.remove(['hooks', clientEvent])
  }
  const hooks = hooksObject(doc, file)
  if (entries.length > 0 && hooks && Object.keys(hooks).length === 0 && created(['hooks'])) doc.remove(['hooks'])
  const rest = Object.entries(root(doc)).filter(([k, v]) => !(k in (spec.required ?? {}) && spec.required?.[k] === v))
  if (entries.length > 0 && rest.length === 0) {
    for (const key of Object.keys(spec.required ?? {})) if (createdKeys?.some(k => k.join() === key)) doc.remove([key])
  }
  // Reported in the order install adds them, not the order they were taken out.
  const rank = (e: HookEntry) => {
    const i = spec.bindings.findIndex(b => b.clientEvent === e.clientEvent && b.event === e.event)
    return i < 0 ? spec.bindings.length : i
  }
  entries.sort((a, b) => rank(a) - rank(b))
  return {text: doc.text, entries, empty: rest.length === 0}
}

/** Where each cairn handler of this client sits in a settings file: its client event, group and handler index. */
export function cairnHandlers(
  text: string,
  spec: ClientSpec,
  file: string,
): {clientEvent: string; event: HookEvent; group: number; handler: number}[] {
  return findCairn(new JsonText(text, file, spec.comments), spec).map(f => ({
    clientEvent: f.clientEvent,
    event: f.event,
    group: f.path[2] as number,
    handler: (f.path[4] as number | undefined) ?? 0,
  }))
}

/** Every cairn handler of this client in the file, in file order. */
function findCairn(doc: JsonText, spec: ClientSpec): Found[] {
  const out: Found[] = []
  for (const [clientEvent, list] of Object.entries(hooksObject(doc, '') ?? {})) {
    if (!Array.isArray(list)) continue
    list.forEach((item, i) => {
      if (spec.shape === 'flat') {
        const id = isObject(item) ? cairnHookIdentity(item.command) : null
        if (id?.client === spec.client) {
          const path = ['hooks', clientEvent, i]
          out.push({clientEvent, event: id.event, command: item.command as string, path, itemPath: path})
        }
        return
      }
      const handlers = isObject(item) && Array.isArray(item.hooks) ? item.hooks : []
      const ours = handlers.map(h => (isObject(h) ? cairnHookIdentity(h.command) : null))
      const whole = ours.every(id => id?.client === spec.client)
      handlers.forEach((h, j) => {
        const id = ours[j]
        if (id?.client !== spec.client) return
        const path = ['hooks', clientEvent, i, 'hooks', j]
        const command = (h as {command: string}).command
        out.push({clientEvent, event: id.event, command, path, itemPath: whole ? ['hooks', clientEvent, i] : path})
      })
    })
  }
  return out
}

function newEntry(spec: ClientSpec, binding: HookBinding, command: string): Record<string, unknown> {
  const matcher = binding.matcher === undefined ? {} : {matcher: binding.matcher}
  if (spec.shape === 'flat') return {command, ...matcher, timeout: spec.timeout}
  const handler = {...spec.handlerExtras?.(binding), type: 'command', command, timeout: spec.timeout}
  return {...matcher, hooks: [handler]}
}

const root = (doc: JsonText) => doc.value as Record<string, unknown>

/** The file's `hooks` object; undefined when absent; refused when it is something else. */
function hooksObject(doc: JsonText, file: string): Record<string, unknown> | undefined {
  const hooks = root(doc).hooks
  if (hooks === undefined || isObject(hooks)) return hooks
  const fix = 'make "hooks" an object of event names to hook lists, or remove it'
  throw validationError([{file, field: 'hooks', message: 'is not a JSON object', fix}])
}
