import {type Config, DEFAULT_CONFIG, parseConfig} from '../../domain/config.js'
import {decodeUtf8} from '../../domain/text.js'
import {parseYaml} from '../../domain/yaml.js'
import {configRel, type Store} from '../layout.js'
import {readFileIn, SETTINGS, SMALL_FILE} from '../files/store-files.js'

/** The store's settings; a missing file means every default. A link, or a file over 1 MB, is refused. */
export function readConfig(store: Store): Config {
  const label = configRel(store)
  const bytes = readFileIn(store.root, label, SMALL_FILE, SETTINGS)
  if (bytes === null) return DEFAULT_CONFIG
  return parseConfig(parseYaml(decodeUtf8(bytes, label), label), label)
}
