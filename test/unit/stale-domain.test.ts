import {describe, expect, it} from 'vitest'
import {type FileChange, headTree, hitsOf, isGlob, pathReasons, settledEvidence} from '../../src/domain/stale.js'

const change = (status: FileChange['status'], p: string, to: string | null = null): FileChange => ({
  status,
  path: p,
  to,
  baseBlob: '',
  deleted: 0,
})
const reasonsOf = (cited: string[], changes: FileChange[], files: string[]) =>
  pathReasons(
    hitsOf([{id: 'c', path: 'p', title: 't', cited, symbols: []}], changes).get('c') ?? [],
    headTree(files),
    new Map(),
  )

describe('stale, the pure half', () => {
  it('a Next.js or SvelteKit route is a file name, not a glob: its rename is a rename', () => {
    expect([isGlob('pages/[id].tsx'), isGlob('app/(auth)/page.tsx'), isGlob('src/**/*.ts'), isGlob('!dist/x')]).toEqual(
      [false, false, true, true],
    )
    expect(
      reasonsOf(['pages/[id].tsx'], [change('R', 'pages/[id].tsx', 'pages/[postId].tsx')], ['pages/[postId].tsx']),
    ).toEqual([{kind: 'renamed', path: 'pages/[id].tsx', to: 'pages/[postId].tsx'}])
  })

  it('a new name a card could not hold is a deletion for the card', () => {
    expect(reasonsOf(['src/a.ts'], [change('R', 'src/a.ts', 'src/x\\a.ts')], ['src/x\\a.ts'])).toEqual([
      {kind: 'deleted', path: 'src/a.ts'},
    ])
  })

  it('a change inside a cited folder counts only when it takes a file away', () => {
    const many = Array.from({length: 300}, (_, i) => change('M', `src/f${i}.ts`))
    expect(hitsOf([{id: 'c', path: 'p', title: 't', cited: ['src'], symbols: []}], many).get('c')).toBeUndefined()
  })

  it('settles evidence: a rename everywhere the card cites it, a deletion out of recent and evidence paths only', () => {
    const card = {
      scope: {level: 'project' as const, project_key: null, module_path: null, paths: ['src/a.ts', 'src/gone.ts']},
      provenance: {
        source_sessions: [],
        proposed_reason: null,
        session_context: null,
        recent_paths: ['src/a.ts', 'src/gone.ts', 'src/kept.ts'],
        user_messages_summary: null,
        idempotency_key: null,
        proposed_by: null,
        client: null,
        via: null,
        session: null,
        promoted: null,
      },
      evidence: {
        paths: ['src/gone.ts'],
        symbols: ['parseConfig', 'loadConfig'],
        verified_at: null,
        verified_commit: null,
      },
    }
    expect(
      settledEvidence(card, [
        {kind: 'renamed', path: 'src/a.ts', to: 'src/b.ts'},
        {kind: 'deleted', path: 'src/gone.ts'},
        {kind: 'symbol', symbol: 'loadConfig'},
      ]),
    ).toEqual([
      {path: ['provenance', 'recent_paths'], value: ['src/b.ts', 'src/kept.ts']},
      {path: ['evidence', 'paths'], value: []},
      {path: ['scope', 'paths'], value: ['src/b.ts', 'src/gone.ts']},
      {path: ['evidence', 'symbols'], value: ['parseConfig']},
    ])
  })
})
