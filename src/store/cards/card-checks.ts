import type {Card} from '../../domain/card/schema.js'
import type {Issue} from '../../domain/errors.js'
import type {Store} from '../layout.js'
import {readCardFile} from './card-file.js'
import {openSteeringCache, type SteeringCache} from './steering-cache.js'
import {allowedHosts, allowedSecrets, findSecrets, secretIssues, type SecretHit, type SecretSource} from './secrets.js'

/**
 * What lint reads beyond the stores' listing, as Stores.cardChecks hands it out: card files at any path (lint is
 * given paths outside the stores too), and the secret scan with what each store's config allows (propose runs it on
 * text a proposal of a pending card gives, which its write may leave out).
 */
export interface CardChecks {
  /** A card file read as bad input is defined: a regular file (never a link), the size cap, strict UTF-8, the schema. */
  readCard(file: string, label: string): Card
  /** Fingerprints the store's config allows (secrets.allow); a broken config allows nothing. */
  allowedSecrets(store: Store): Set<string>
  /** Link hosts the store's config allows beyond the built-in list (content.allow_hosts); a broken config allows none. */
  allowedHosts(store: Store): string[]
  /**
   * Secrets and steering text in the given cards (or unparsed card files), minus those whose fingerprint `allow`
   * lists; `hosts` extends the link allow-list.
   */
  findSecrets(
    sources: SecretSource[],
    allow?: ReadonlySet<string>,
    hosts?: readonly string[],
    cache?: SteeringCache,
  ): Promise<SecretHit[]>
  /** The steering check's findings of earlier scans, kept in the store's .cache by the text they were found in. */
  steeringCache(store: Store): SteeringCache
  /** The secrets and steering text in cards bound for the store, as the validation issues its writes would give. */
  secretIssues(store: Store, cards: {file: string; card: Card}[]): Promise<Issue[]>
}

export function openCardChecks(): CardChecks {
  return {
    readCard: readCardFile,
    allowedSecrets,
    allowedHosts,
    findSecrets,
    secretIssues,
    steeringCache: openSteeringCache,
  }
}
