import {describe, expect, it} from 'vitest'
import {ADAPTERS} from '../src/agents/run.js'
import {patchPaths} from '../src/agents/codex.js'
import {parseTranscript} from '../src/agents/transcript.js'
import {HOOK_EVENTS} from '../src/app/hooks/types.js'
import {replay} from '../src/domain/board/replay.js'
import {parseCommitRequest} from '../src/domain/board/request.js'
import {DEFAULT_BOARD_SETTINGS} from '../src/domain/board/scale.js'
import {RECORD_SCHEMA} from '../src/domain/board/state.js'
import type {BatchRecord} from '../src/domain/board/types.js'
import {analysePrompt} from '../src/recall/match/prompt.js'
import {buildRegistry} from '../src/recall/match/signals.js'
import {eventLine} from '../src/store/agents/local.js'
import {feed, hookRepo, settle} from './hook-helpers.js'

/**
 * Work a hook does is bounded by its input: for each dimension of what a client or a committed
 * file can make large, the work at 2n takes well under four times the work at n (quadratic work
 * would take four). Work is this process's CPU time, not the clock, so other processes on a loaded
 * machine do not count; each side is the best of four interleaved runs of at least 20 ms.
 * Linear work comes out near 2, and up to about 2.9 where it fills maps of thousands of entries (a
 * lookup in a larger map misses the cache more often); quadratic work comes out at 4 or more, and
 * the bound is 3.3. A machine busy enough to disturb the best of four runs still cannot do it three
 * times in a row: a ratio over the bound must repeat to fail, where quadratic work gives 4 every time.
 */
const BOUND = 3.3
const RUNS = 4
const MIN_MS = 20

async function timed(work: () => unknown, reps: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < reps; i++) await work()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** Time at 2n over time at n: the lowest of up to three measures, stopping at the first under the bound. */
async function growth<T>(make: (n: number) => T, work: (input: T) => unknown, n: number): Promise<number> {
  const small = make(n)
  const large = make(2 * n)
  await work(small)
  let reps = 1
  let ratio = Infinity
  for (let attempt = 0; attempt < 3 && ratio >= BOUND; attempt++) {
    let [a, b] = [0, 0]
    // Until the best run at n is long enough to measure: one slow run may have made `reps` look enough.
    while (a < MIN_MS && reps < 1 << 20) {
      ;[a, b] = [Infinity, Infinity]
      for (let r = 0; r < RUNS; r++) {
        a = Math.min(a, await timed(() => work(small), reps))
        b = Math.min(b, await timed(() => work(large), reps))
      }
      if (a < MIN_MS) reps *= Math.min(64, Math.ceil((2 * MIN_MS) / Math.max(a, 0.1)))
    }
    ratio = Math.min(ratio, b / a)
  }
  return ratio
}

const record = (batchId: string, declarations: unknown[]): BatchRecord => {
  const parsed = parseCommitRequest({batch_id: batchId, declarations}, 'agent', {max: Infinity})
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 2)))
  const now = '2026-10-09T12:00:00Z'
  return {schema: RECORD_SCHEMA, key: `${batchId}-00000001`, clock: 1, parents: [], now, request: parsed.request}
}
/** 20 topics and their items. */
const items = (n: number) =>
  Array.from({length: n}, (_, i) => ({
    op: 'new',
    id: `i-${i}`,
    parent: i < 20 ? null : `i-${i % 20}`,
    kind: 'progress',
    weight: 1,
    summary: `Item ${i}.`,
  }))
/** Ends on a patch of an item nobody declared: the record no longer applies whole. */
const stale = (n: number) =>
  record('stale', [...items(n - 1), {op: 'supersedes', id: 'gone', kind: 'result', weight: 2}])
const replayed = (r: BatchRecord) => replay([r], DEFAULT_BOARD_SETTINGS)
/** n items in one line of descent, 250 to a record, each record written on top of the one before. */
const chain = (n: number): BatchRecord[] =>
  Array.from({length: n / 250}, (_, r) => {
    const decls = Array.from({length: 250}, (_, i) => {
      const k = r * 250 + i
      return {
        op: 'new',
        id: `i-${k}`,
        parent: k ? `i-${k - 1}` : null,
        kind: 'progress',
        weight: 1,
        summary: `Step ${k}.`,
      }
    })
    const one = record(`step${r}`, decls)
    return {...one, clock: r + 1, parents: r ? [`step${r - 1}-00000001`] : []}
  })

const paths = (n: number) => Array.from({length: n}, (_, i) => `src/module-${i}/file-${i}.ts`)
const patchOf = (files: string[]) =>
  `*** Begin Patch\n${files.map(f => `*** Update File: ${f}\n@@\n-a\n+b`).join('\n')}\n*** End Patch`
const applyPatch = (n: number) => ({tool_name: 'apply_patch', tool_input: {command: patchOf(paths(n))}})
const analysed = (prompt: string) => analysePrompt(prompt, buildRegistry())
const USER_LINE = `${JSON.stringify({type: 'user', message: {role: 'user', content: 'hi there'}})}\n`
const transcript = (n: number) => USER_LINE.repeat(n / USER_LINE.length)

describe('the work of a hook grows with its input, never with its square', () => {
  const cases: [string, (n: number) => unknown, (input: any) => unknown, number][] = [
    ['codex patch line length', n => `*** Add File: a${' '.repeat(n)}b`, patchPaths, 20_000],
    ['codex patch line length, trailing spaces', n => `*** Add File: a${' '.repeat(n)}`, patchPaths, 20_000],
    ['number of patch files', applyPatch, p => ADAPTERS.codex.parse('pre-tool-use', p), 20_000],
    ['event paths', n => ({ts: 't', event: 'edit', session: 's', paths: paths(n)}), eventLine, 4_000],
    [
      'event cards and paths',
      n => ({ts: 't', event: 'card_shown', cards: paths(n), paths: paths(n)}),
      eventLine,
      2_000,
    ],
    ['board declarations per record, applied whole', n => record('whole', items(n)), replayed, 1_000],
    ['board declarations per record, not applying whole', stale, replayed, 1_000],
    ['board declarations per record, over the cap and not applying whole', stale, replayed, 2_500],
    ['board depth, records chained one on another', chain, rs => replay(rs, DEFAULT_BOARD_SETTINGS), 8_000],
    ['prompt length, "no" after "no"', n => 'no '.repeat(n / 3), analysed, 60_000],
    ['prompt length, examples', n => 'e.g. the login test '.repeat(n / 20), analysed, 60_000],
    ['prompt length, words', n => 'the flaky login test times out '.repeat(n / 31), analysed, 60_000],
    ['prompt length, Chinese', n => '登录测试不稳定，不是前端的问题'.repeat(n / 15), analysed, 30_000],
    ['transcript size, records', transcript, parseTranscript, 200_000],
    ['transcript size, torn lines', n => '{\n'.repeat(n / 2), parseTranscript, 200_000],
  ]
  for (const [name, make, work, n] of cases) {
    it(name, async () => {
      expect(await growth(make, work, n)).toBeLessThan(BOUND)
    })
  }

  /** Every field an adapter reads, made n characters long (paths n entries long), for every event. */
  const payload = (n: number) => {
    const text = 'x'.repeat(n)
    const list = paths(n / 30)
    return JSON.stringify({
      session_id: text,
      conversation_id: text,
      cwd: text,
      workspace_roots: list,
      transcript_path: text,
      prompt: text,
      tool_name: 'apply_patch',
      file_path: text,
      last_assistant_message: text,
      prompt_response: text,
      status: text,
      tool_input: {command: patchOf(list), file_path: text, notebook_path: text, path: text},
    })
  }
  for (const [agent, adapter] of Object.entries(ADAPTERS)) {
    it(`payload size: the ${agent} parser`, async () => {
      const parse = (text: string) => HOOK_EVENTS.map(e => adapter.parse(e, JSON.parse(text)))
      expect(await growth(payload, parse, 200_000)).toBeLessThan(BOUND)
    })
  }

  it('whole hooks: a Codex post-tool-use per patch files, a Claude prompt per prompt length', async () => {
    const repo = await hookRepo()
    const hook = (agent: string, event: string) => (p: object) =>
      feed(repo, agent, event, {session_id: 's', cwd: repo.dir, ...p})
    expect(await growth(applyPatch, hook('codex', 'post-tool-use'), 4_000)).toBeLessThan(BOUND)
    const prompt = (n: number) => ({prompt: 'no '.repeat(n / 3)})
    expect(await growth(prompt, hook('claude', 'user-prompt-submit'), 100_000)).toBeLessThan(BOUND)
    await settle(repo)
  }, 120_000)
})
