import {parseCard} from '../../domain/card/format.js'
import type {Card} from '../../domain/card/schema.js'
import {MAX_CARD_BYTES} from '../../domain/card/types.js'
import {decodeUtf8} from '../../domain/text.js'
import {readRegularFile} from '../files/safe-read.js'

/**
 * Reads a card file as bad input is defined: a regular file (never a link), size cap, strict UTF-8,
 * schema. A module of its own so that the parser (YAML and zod) loads only where a card is parsed:
 * cards.ts imports it on the first card the card cache does not hold.
 */
export function readCardFile(file: string, label: string): Card {
  return parseCard(decodeUtf8(readRegularFile(file, label, MAX_CARD_BYTES), label), label)
}
