import type {Card} from '../domain/card/schema.js'
import {parseCard} from '../domain/card/format.js'
import {MAX_CARD_BYTES} from '../domain/card/types.js'
import {decodeUtf8} from '../domain/text.js'
import {readRegularFile} from './safe-read.js'

/**
 * Reads a card file as bad input is defined: a regular file (never a link), size cap, strict UTF-8,
 * schema. Apart from cards.ts, so that the parser (YAML and the schema) loads only when a card is
 * actually parsed, not on a read the card cache answers.
 */
export function readCardFile(file: string, label: string): Card {
  return parseCard(decodeUtf8(readRegularFile(file, label, MAX_CARD_BYTES), label), label)
}
