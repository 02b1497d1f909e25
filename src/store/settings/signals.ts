import {parseSignals} from '../../recall/match/signal-schema.js'
import type {Signal} from '../../recall/match/signals.js'
import {decodeUtf8} from '../../domain/text.js'
import {parseYaml} from '../../domain/yaml.js'
import {signalsRel, type Store} from '../layout.js'
import {readFileIn, SETTINGS, SMALL_FILE} from '../files/store-files.js'

/** The project's own signals; none when the file is absent. Invalid files throw a validation error. */
export function readProjectSignals(store: Store | undefined): Signal[] {
  if (!store) return []
  const label = signalsRel(store)
  const bytes = readFileIn(store.root, label, SMALL_FILE, SETTINGS)
  if (bytes === null) return []
  return parseSignals(parseYaml(decodeUtf8(bytes, label), label), label)
}
