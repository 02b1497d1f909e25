import fs from 'node:fs'
import type {SecretLintCoreConfig, SecretLintRuleCreator} from '@secretlint/types'
import {CairnError, type Issue} from '../../domain/errors.js'
import {
  AWS_RULE,
  awsKeyShapes,
  cardSegments,
  credentialAssignments,
  CREDENTIAL_RULE,
  fingerprint,
  recordSegments,
  secretIssue,
  secretKind,
  type SecretHit,
  type Segment,
} from '../../domain/secrets.js'
import type {Card} from '../../domain/card/schema.js'
import {MAX_CARD_BYTES} from '../../domain/card/types.js'
import {decodeUtf8} from '../../domain/text.js'
import {steeringHits} from '../../domain/steering.js'
import {readConfig} from '../settings/config.js'
import {configRel, type Store} from '../layout.js'
import type {SteeringCache} from './steering-cache.js'

export type {SecretHit} from '../../domain/secrets.js'

/** A parsed card, a proposal not yet a card (an import's), or (for lint) a card file that did not parse, scanned whole. */
export type SecretSource = {file: string; card: Card} | {file: string; record: object} | {file: string; path: string}

/** An account ID names an account; it is not a credential. */
const NOT_SECRET = new Set(['AWSAccountID'])
// One lint call costs a fixed setup of every rule, so many cards share a call (a 1,000-card propose
// makes three); the chunk size bounds the memory a 10,000-card lint needs.
const CHUNK_CHARS = 256 * 1024
const SEPARATOR = '\n\n'

const credentialRule: SecretLintRuleCreator = {
  messages: {CREDENTIAL: {en: () => 'credential assignment with a high-entropy value'}},
  meta: {id: CREDENTIAL_RULE, type: 'scanner', recommended: true, supportedContentTypes: ['text']},
  create(context) {
    const t = context.createTranslator(credentialRule.messages)
    return {
      file(source) {
        for (const range of credentialAssignments(source.content)) context.report({message: t('CREDENTIAL', {}), range})
      },
    }
  },
}

const awsRule: SecretLintRuleCreator = {
  messages: {
    AWSKeyIDShape: {en: () => 'value shaped like an AWS access key ID'},
    AWSSecretKeyShape: {en: () => 'value shaped like an AWS secret access key'},
  },
  meta: {id: AWS_RULE, type: 'scanner', recommended: true, supportedContentTypes: ['text']},
  create(context) {
    const t = context.createTranslator(awsRule.messages)
    return {
      file(source) {
        for (const shape of awsKeyShapes(source.content)) {
          const message = t(shape.kind === 'key_id' ? 'AWSKeyIDShape' : 'AWSSecretKeyShape', {})
          context.report({message, range: [shape.start, shape.end]})
        }
      },
    }
  },
}

type LintSource = (typeof import('../../domain/vendor/secretlint.js'))['lintSource']
let loaded: Promise<{lintSource: LintSource; config: SecretLintCoreConfig}> | undefined

/** Loaded on first use only: the write and lint paths pay for it, the prompt hook never does. */
function engine() {
  loaded ??= (async () => {
    // secretlint's profiler adds ~56 performance marks per lint to the process-wide buffer and
    // never clears them: a 1,000-card scan would spend most of its time there and keep them all.
    const {secretLintProfiler, lintSource, creator: preset} = await import('../../domain/vendor/secretlint.js')
    secretLintProfiler.mark = () => {}
    const config: SecretLintCoreConfig = {
      rules: [
        {
          id: preset.meta.id,
          rule: preset,
          rules: [
            {id: '@secretlint/secretlint-rule-aws', options: {enableIDScanRule: true}},
            // A "secretlint-disable" comment in a card must not switch the check off: only secrets.allow may.
            {id: '@secretlint/secretlint-rule-filter-comments', disabled: true},
          ],
        },
        {id: CREDENTIAL_RULE, rule: credentialRule},
        {id: AWS_RULE, rule: awsRule},
      ],
    }
    return {lintSource, config}
  })()
  return loaded
}

/**
 * Secrets and text that steers an agent (domain/steering.ts) in the given cards, minus those whose fingerprint
 * `allow` lists; `hosts` are the links the store allows beyond the built-in list (content.allow_hosts).
 */
export async function findSecrets(
  sources: SecretSource[],
  allow: ReadonlySet<string> = new Set(),
  hosts: readonly string[] = [],
  cache?: SteeringCache,
): Promise<SecretHit[]> {
  const hits: SecretHit[] = []
  let chunk: Segment[] = []
  let size = 0
  for (const source of sources) {
    const segments =
      'card' in source
        ? cardSegments(source.file, source.card)
        : 'record' in source
          ? recordSegments(source.file, source.record)
          : rawSegment(source.file, source.path)
    for (const segment of segments) {
      chunk.push(segment)
      size += segment.text.length + SEPARATOR.length
    }
    hits.push(...steeringOf(source.file, segments, hosts, cache))
    if (size < CHUNK_CHARS) continue
    hits.push(...(await scan(chunk)))
    chunk = []
    size = 0
  }
  if (chunk.length) hits.push(...(await scan(chunk)))
  // The same value twice in one field (or once in each body section) is one finding.
  const seen = new Set<string>()
  return hits.filter(h => {
    const key = `${h.file}\0${h.field}\0${h.fingerprint}`
    if (allow.has(h.fingerprint) || seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The steering hits of one source's segments, in their order: from the cache when it scanned the same text before. */
function steeringOf(file: string, segments: Segment[], hosts: readonly string[], cache?: SteeringCache): SecretHit[] {
  const key = cache?.key(segments, hosts)
  const known = key === undefined ? undefined : cache!.get(key)
  if (known) return known.map(f => ({file, field: f.field, kind: f.kind, rule: f.rule, fingerprint: f.fingerprint}))
  const found = segments.flatMap(s => steeringHits(s, hosts))
  if (key !== undefined)
    cache!.set(
      key,
      found.map(h => ({field: h.field, kind: h.kind, rule: h.rule, fingerprint: h.fingerprint})),
    )
  return found
}

async function scan(segments: Segment[]): Promise<SecretHit[]> {
  const {lintSource, config} = await engine()
  const starts: number[] = []
  let offset = 0
  for (const s of segments) {
    starts.push(offset)
    offset += s.text.length + SEPARATOR.length
  }
  const content = segments.map(s => s.text).join(SEPARATOR)
  const source = {content, filePath: 'cards.md', ext: '.md', contentType: 'text' as const}
  const result = await lintSource({source, options: {config, noPhysicFilePath: true}})
  const found = result.messages
    .filter(m => !NOT_SECRET.has(m.messageId ?? ''))
    .map(m => {
      const [start, end] = m.range
      const at = segmentAt(starts, start)
      // Rules put the secret in data (KEY, TOKEN, ...); the range is the fallback. Either way it is only hashed.
      const inData = Object.values(m.data ?? {}).find(
        (v): v is string => typeof v === 'string' && v.length > 0 && segments[at].text.includes(v),
      )
      return {m, at, value: inData ?? content.slice(start, end)}
    })
  // cairn's AWS rule finds shapes the preset's finds too: the preset's finding (and its fingerprint, which a
  // secrets.allow may list) stands, and the shape adds nothing.
  const byOthers = new Set(found.filter(f => f.m.ruleId !== AWS_RULE).map(f => `${f.at}\0${f.value}`))
  return found
    .filter(f => f.m.ruleId !== AWS_RULE || !byOthers.has(`${f.at}\0${f.value}`))
    .map(({m, at, value}) => ({
      file: segments[at].file,
      field: segments[at].field,
      kind: secretKind(m.ruleId, m.messageId),
      rule: m.ruleId,
      fingerprint: fingerprint(m.ruleId, value),
    }))
}

function segmentAt(starts: number[], offset: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** A card file that failed to parse: scan its text, if it is a regular file of card size. */
function rawSegment(file: string, path: string): Segment[] {
  try {
    const stat = fs.lstatSync(path)
    if (!stat.isFile() || stat.size > MAX_CARD_BYTES) return []
    return [{file, field: '(content)', text: decodeUtf8(fs.readFileSync(path), file)}]
  } catch {
    return []
  }
}

/** Fingerprints the store's config allows; a broken config allows nothing (the check only gets stricter). */
export function allowedSecrets(store: Store): Set<string> {
  try {
    return new Set(readConfig(store).secrets.allow)
  } catch (error) {
    if (error instanceof CairnError) return new Set()
    throw error
  }
}

/** Link hosts the store's config allows (content.allow_hosts); a broken config allows none. */
export function allowedHosts(store: Store): string[] {
  try {
    return readConfig(store).content.allow_hosts
  } catch (error) {
    if (error instanceof CairnError) return []
    throw error
  }
}

/** The secrets and steering text in cards a transaction writes, as validation issues. */
export async function secretIssues(store: Store, cards: {file: string; card: Card}[]): Promise<Issue[]> {
  if (cards.length === 0) return []
  const hits = await findSecrets(cards, allowedSecrets(store), allowedHosts(store))
  const label = configRel(store)
  return hits.map(h => secretIssue(h, label))
}
