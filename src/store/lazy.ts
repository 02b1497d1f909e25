import {createRequire} from 'node:module'

const require = createRequire(import.meta.url)

/**
 * A store module loaded on first use, synchronously (an ES module through require: Node 20.19 and
 * later). The card parser, the config schema and the transaction module pull in YAML, zod and git:
 * a command that never needs them (list from the card cache, say) never pays for loading them.
 * The specifier is relative to this directory.
 */
export function lazy<T>(specifier: string): () => T {
  let loaded: T | undefined
  return () => (loaded ??= require(specifier) as T)
}
