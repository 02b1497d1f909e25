import {adr} from './adr.js'
import {claudeMd} from './claude-md.js'
import {copilot} from './copilot.js'
import {cursorRules} from './cursor-rules.js'
import {fabric} from './fabric.js'
import {kiro} from './kiro.js'
import {ome} from './ome.js'
import {skein} from './skein.js'
import type {ImportKind} from './source.js'

/** Every importer over the shared pipeline, by the name `cairn import <kind>` takes. */
export const IMPORT_KINDS: Record<string, ImportKind> = Object.fromEntries(
  [claudeMd, cursorRules, copilot, kiro, adr, skein, fabric, ome].map(k => [k.kind, k]),
)
