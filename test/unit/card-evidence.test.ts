import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseCard, patchCard, renderCard} from '../../src/domain/card/format.js'
import {evidenceCandidates} from '../../src/domain/evidence.js'

const SHA = 'a'.repeat(40)
const card = (extra = '', schema = 'cairn/card@1') => `---
schema: ${schema}
id: parse-config-defaults-trap
type: pitfall
status: active
title: parseConfig drops nested defaults
summary: Merge nested keys by hand.
scope: {level: project, paths: [src/config/**]}
${extra}created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
---
body
`

describe('cairn/card@3: evidence', () => {
  it('reads @3 and renders evidence after scope; a card without evidence stays @1, with no evidence key', () => {
    const text = card(
      `evidence:\n  paths: [docs/config.md]\n  symbols: [parseConfig, hooks.deadline_ms]\n  verified_at: 2026-11-30T10:00:00Z\n  verified_commit: ${SHA}\n`,
      'cairn/card@3',
    )
    const parsed = parseCard(text, 'c.md')
    expect(parsed.evidence).toEqual({
      paths: ['docs/config.md'],
      symbols: ['parseConfig', 'hooks.deadline_ms'],
      verified_at: '2026-11-30T10:00:00Z',
      verified_commit: SHA,
    })
    const rendered = renderCard(parsed)
    expect(rendered).toContain(
      'scope:\n  level: project\n  project_key: null\n  module_path: null\n  paths: [src/config/**]\nevidence:\n  paths: [docs/config.md]\n',
    )
    expect(parseCard(rendered, 'c.md')).toEqual(parsed)
    const plain = renderCard(parseCard(card(), 'c.md'))
    expect(plain).toMatch(/^---\nschema: cairn\/card@1\n/)
    expect(plain).not.toContain('evidence')
  })

  it('refuses evidence on an @1 or @2 card, naming the fix; an @3 card without evidence is read', () => {
    const e = validationFailure(() => parseCard(card('evidence: {symbols: [parseConfig]}\n', 'cairn/card@2'), 'x.md'))
    expect(e.message).toContain(
      'x.md: schema: is cairn/card@2, but evidence needs cairn/card@3. Fix: set schema: cairn/card@3.',
    )
    expect(parseCard(card('', 'cairn/card@3'), 'x.md').schema).toBe('cairn/card@3')
  })

  it('refuses a verified_commit that is not a full commit id, and a symbol over two lines', () => {
    const bad = validationFailure(() => parseCard(card('evidence: {verified_commit: HEAD}\n', 'cairn/card@3'), 'x.md'))
    expect(bad.message).toContain('evidence.verified_commit: must be a full commit id')
    const lines = validationFailure(() => parseCard(card('evidence: {symbols: ["a\\nb"]}\n', 'cairn/card@3'), 'x.md'))
    expect(lines.message).toContain('evidence.symbols[0]: must be one line')
  })

  it('patchCard adds evidence where a rendered card has it and moves the card to @3; emptied, back to @1', () => {
    const patched = patchCard(card(), 'x.md', [
      {path: ['evidence', 'verified_at'], value: '2026-12-01T00:00:00Z'},
      {path: ['evidence', 'verified_commit'], value: SHA},
    ])
    expect(patched).toContain(
      `scope: {level: project, paths: [src/config/**]}\nevidence:\n  verified_at: 2026-12-01T00:00:00Z\n  verified_commit: ${SHA}\ncreated:`,
    )
    expect(patched).toMatch(/^---\nschema: cairn\/card@3\n/)
    expect(parseCard(patched, 'x.md').evidence.verified_commit).toBe(SHA)
    const emptied = patchCard(patched, 'x.md', [
      {path: ['evidence', 'verified_at'], value: null},
      {path: ['evidence', 'verified_commit'], value: null},
    ])
    expect(emptied).toBe(card())
  })
})

describe('evidenceCandidates', () => {
  it('takes code spans, code-shaped words and paths; leaves prose', () => {
    const c = evidenceCandidates({
      title: 'parseConfig drops nested defaults',
      summary:
        'Call `loadConfig()` from src/config/load.ts, set `hooks.deadline_ms`, run `npm run build`; MAX_RETRIES and retry_budget too. On macOS and iOS, see `docs/` and `README.md:12`.',
      body: '## Rule\n\nUse `deepMerge` (not Object.assign) and `./lib/x.ts`.\n',
    })
    expect(c.paths).toEqual(['docs', 'README.md', 'lib/x.ts', 'src/config/load.ts'])
    expect(c.symbols).toEqual([
      'loadConfig',
      'hooks.deadline_ms',
      'npm run build',
      'deepMerge',
      'parseConfig',
      'MAX_RETRIES',
      'retry_budget',
    ])
  })

  it('leaves out built-ins and plain words, takes file names by their extension and folders named in prose', () => {
    const c = evidenceCandidates({
      title: 'Config loading',
      summary:
        'Use `fetch`, `async`, `JSON.stringify`, `Promise` and `build` as usual; `load()` reads `config.yaml`, and `server.port` sets the port. See docs/adr and README.md.',
      body: '',
    })
    expect(c.paths).toEqual(['config.yaml', 'docs/adr', 'README.md'])
    expect(c.symbols).toEqual(['load', 'server.port'])
  })

  it('refuses paths that leave the repository or name the store', () => {
    const c = evidenceCandidates({
      title: 'T',
      summary: 'See `../secret.ts`, `/etc/passwd` and `.cairn/config.yaml`.',
      body: '',
    })
    expect(c.paths).toEqual([])
  })
})
