import {describe, expect, it} from 'vitest'
import {dueSignals, ENRICH_RAISED, type SignalFacts} from '../../src/app/hooks/signals.js'
import {DEFAULT_CONFIG} from '../../src/domain/config.js'
import {hookSettings} from '../../src/recall/format.js'

const NOW = new Date('2026-11-29T10:00:00Z')
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 24 * 3600 * 1000).toISOString()

/** A session that edited a file, with `bare` cards and the ledger's earlier events before it. */
function facts(bare: number, earlier: SignalFacts['events'] = []): SignalFacts {
  return {
    session: 's-now',
    events: [...earlier, {ts: NOW.toISOString(), event: 'edit', session: 's-now', paths: ['a.ts']}],
    settings: hookSettings(DEFAULT_CONFIG),
    now: NOW,
    pending: {count: 0, oldest: null},
    pendingFix: false,
    bareCards: bare,
  }
}
const raised = (days: number, count: number) => ({ts: daysAgo(days), event: ENRICH_RAISED, session: 's-old', count})
/** The enrich signal alone: an old ledger makes archive due too, by time. */
const signals = (f: SignalFacts) =>
  dueSignals(f)
    .filter(d => d.signal === 'enrich')
    .map(d => d.signal)

describe('the enrich signal backs off once raised', () => {
  it('is due at the limit (3 by default), and not below it', () => {
    expect(signals(facts(3))).toEqual(['enrich'])
    expect(signals(facts(2))).toEqual([])
  })

  it('keeps quiet for 7 days after it was raised, unless more cards are bare than it said', () => {
    expect(signals(facts(5, [raised(6.9, 5)]))).toEqual([])
    expect(signals(facts(4, [raised(1, 5)]))).toEqual([])
    expect(signals(facts(6, [raised(1, 5)]))).toEqual(['enrich'])
    expect(signals(facts(5, [raised(7, 5)]))).toEqual(['enrich'])
    // The last time it was raised is the one that counts.
    expect(signals(facts(5, [raised(30, 9), raised(2, 5)]))).toEqual([])
    expect(signals(facts(5, [raised(2, 9), raised(10, 5)].reverse()))).toEqual([])
    // Not any raise within the week with a count as high: the last one's count (4) is what 5 is compared with.
    expect(signals(facts(5, [raised(2, 9), raised(1, 4)]))).toEqual(['enrich'])
  })
})
