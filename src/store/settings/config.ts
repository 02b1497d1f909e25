import {type Config, DEFAULT_CONFIG, parseConfig} from '../../domain/config.js'
import {decodeUtf8} from '../../domain/text.js'
import {parseYaml} from '../../domain/yaml.js'
import {parseCanonicalYaml} from '../../domain/card/fast-yaml.js'
import {configRel, type Store} from '../layout.js'
import {readFileIn, SETTINGS, SMALL_FILE} from '../files/store-files.js'

/**
 * The last file parsed, by its path and text: one write reads the config up to three times (its commit options, the
 * secrets it allows, the hosts it allows), and the same bytes always give the same settings, so they are parsed once.
 */
let parsed: {file: string; text: string; config: Config} | undefined

/** The store's settings; a missing file means every default. A link, or a file over 1 MB, is refused. */
export function readConfig(store: Store): Config {
  const label = configRel(store)
  const bytes = readFileIn(store.root, label, SMALL_FILE, SETTINGS)
  if (bytes === null) return DEFAULT_CONFIG
  const file = `${store.root}\0${label}`
  const text = decodeUtf8(bytes, label)
  if (parsed?.file === file && parsed.text === text) return structuredClone(parsed.config)
  // The fast reader gives exactly what the library gives for the layout cairn writes, or nothing: then the library reads it.
  const config = parseConfig(parseCanonicalYaml(text, true) ?? parseYaml(text, label), label)
  parsed = {file, text, config: structuredClone(config)}
  return config
}
