import {claudeMd} from './claude-md.js'
import {cursorRules} from './cursor-rules.js'
import type {ImportKind} from './source.js'

/** Every importer over the shared pipeline, by the name `cairn import <kind>` takes. */
export const IMPORT_KINDS: Record<string, ImportKind> = {
  [claudeMd.kind]: claudeMd,
  [cursorRules.kind]: cursorRules,
}
