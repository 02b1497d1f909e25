import fs from 'node:fs'
import {parseSignals} from '../domain/recall/signal-schema.js'
import type {Signal} from '../domain/recall/signals.js'
import {decodeUtf8} from '../domain/text.js'
import {parseYaml} from '../domain/yaml.js'
import {abs, rel, type Store} from './layout.js'

export const signalsRel = (store: Store): string => rel(store, 'signals.yaml')

/** The project's own signals; none when the file is absent. Invalid files throw a validation error. */
export function readProjectSignals(store: Store | undefined): Signal[] {
  if (!store) return []
  const label = signalsRel(store)
  const file = abs(store, label)
  if (!fs.existsSync(file)) return []
  return parseSignals(parseYaml(decodeUtf8(fs.readFileSync(file), label), label), label)
}
