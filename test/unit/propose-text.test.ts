import {describe, expect, it} from 'vitest'
import type {ProposedCard} from '../../src/app/propose.js'
import {renderTextOutcome} from '../../src/cli/render-text-changes.js'
import {getRule} from '../../src/domain/card/sections.js'
import {buildCard, parseProposals, type ProposalEnv} from '../../src/domain/propose.js'
import {replaceText, textChanges} from '../../src/domain/propose-text.js'

const env: ProposalEnv = {now: '2026-11-30T09:00:00Z', projectKey: null, defaultLanguage: 'en', maxRecentPaths: 5}
const base = {
  slug: 'deepmerge-array-replace-trap',
  type: 'pitfall',
  title: 'deepMerge replaces arrays',
  summary: 'Arrays are replaced, not concatenated.',
  source_sessions: ['session-1'],
}
const build = (extra: Record<string, unknown>, e: ProposalEnv = env) =>
  buildCard(parseProposals({...base, ...extra}, 'in.json')[0], e)

describe('textChanges', () => {
  it('lists the text fields that differ, never the evidence or what cairn derives', () => {
    const pending = build({recent_paths: ['src/a.ts'], session_context: 'Goal.'}, {...env, now: '2026-11-29T10:00:00Z'})
    expect(textChanges(pending, build({recent_paths: ['src/b.ts'], source_sessions: ['session-1', 's-2']}))).toEqual([])
    // Another title changes the derived triggers too: only the title is the proposer's text.
    expect(
      textChanges(pending, build({title: 'deepMerge drops arrays', recall: {aliases: {zh: ['数组被替换']}}})),
    ).toEqual([
      {field: 'title', old: 'deepMerge replaces arrays', new: 'deepMerge drops arrays'},
      {field: 'recall.aliases.zh', old: [], new: ['数组被替换']},
    ])
  })
})

describe('replaceText', () => {
  it('gives the pending card the new text and body, and keeps its creation and merged evidence', () => {
    const pending = {
      ...build({session_context: 'Goal.'}, {...env, now: '2026-11-29T10:00:00Z'}),
      protected: true,
      supersedes: ['older-array-merge-note'],
    }
    const incoming = build({rule: 'Append, then dedupe.', source_sessions: ['session-1', 's-2'], load: 'core'})
    const c = replaceText(pending, incoming, env)
    expect([getRule(c.body), c.load, c.created, c.updated, c.protected, c.supersedes]).toEqual([
      'Append, then dedupe.',
      'core',
      '2026-11-29T10:00:00Z',
      '2026-11-30T09:00:00Z',
      true,
      ['older-array-merge-note'],
    ])
    expect(c.provenance.source_sessions).toEqual(['session-1', 's-2'])
    expect(c.body).toMatch(/## Evidence\n\n- Source sessions: session-1, s-2\n\nSession context:\n\n> Goal\.\n$/)
  })
})

describe('renderTextOutcome', () => {
  const proposed = (over: Partial<ProposedCard>): ProposedCard => ({
    id: 'deepmerge-array-replace-trap',
    type: 'pitfall',
    store: 'project',
    path: '.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
    outcome: 'merged',
    key: 'k',
    ...over,
  })

  it('says nothing when the text was the same', () => {
    expect(renderTextOutcome(proposed({}))).toEqual([])
  })

  it('cuts long values to the part that changed, from a word, and lists phrases', () => {
    const long = `${'Merge the hook settings of every client before writing them back, '.repeat(3)}then dedupe.`
    const lines = renderTextOutcome(
      proposed({
        kept_text: [
          {field: 'rule', old: long, new: long.replace('then dedupe', 'then sort and dedupe')},
          {field: 'recall.triggers', old: ['hooks vanished'], new: []},
        ],
      }),
    )
    expect(lines).toEqual([
      'The pending card deepmerge-array-replace-trap kept its text, and only the new evidence was merged. ' +
        'The proposal differs in 2 fields:',
      '  rule:            "…back, then dedupe." → "…back, then sort and dedupe."',
      '  recall.triggers: "hooks vanished" → (none)',
      'To replace the text, propose again with --replace.',
    ])
  })

  it('cuts a value still too long after its shared ends are gone', () => {
    const lines = renderTextOutcome(
      proposed({outcome: 'replaced', replaced_text: [{field: 'summary', old: 'a'.repeat(100), new: 'b'.repeat(100)}]}),
    )
    expect(lines).toEqual([
      'The text of deepmerge-array-replace-trap was replaced in 1 field:',
      `  summary: "${'a'.repeat(71)}…" → "${'b'.repeat(71)}…"`,
    ])
  })
})
