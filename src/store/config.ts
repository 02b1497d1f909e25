import fs from 'node:fs'
import {type Config, DEFAULT_CONFIG, parseConfig} from '../domain/config.js'
import {decodeUtf8} from '../domain/text.js'
import {parseYaml} from '../domain/yaml.js'
import {abs, configRel, type Store} from './layout.js'

/** The store's settings; a missing file means every default. */
export function readConfig(store: Store): Config {
  const file = abs(store, configRel(store))
  if (!fs.existsSync(file)) return DEFAULT_CONFIG
  const label = configRel(store)
  return parseConfig(parseYaml(decodeUtf8(fs.readFileSync(file), label), label), label)
}
