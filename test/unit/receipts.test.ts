import {describe, expect, it} from 'vitest'
import {asReceipt, type CardEntry, printedCards, receiptLine, sinceInstant} from '../../src/domain/receipts.js'

const entry = (id: string, text: string, why = `trigger "${id}"`, store: CardEntry['store'] = 'project') => ({
  id,
  store,
  why,
  text,
})

describe('printedCards: the cards the client was given, by their entries in the printed text', () => {
  const a = '- Alpha (alpha) [may]\n  Summary of alpha.\n  Full rule: cairn show alpha --section rule'
  const b = '- Beta (beta) [may]\n  Summary of beta.\n  Full rule: cairn show beta --section rule'

  it('a whole entry counts whole; one cut at a line counts the lines printed; one left out is not there', () => {
    const cut = `HEAD\n${a}\n- Beta (beta) [may]\n… (cut to fit the hook size limit)`
    expect(printedCards([entry('alpha', a), entry('beta', b), entry('gamma', '- Gamma (gamma) [may]')], cut)).toEqual([
      {id: 'alpha', why: 'trigger "alpha"', chars: [...a].length, home: 'project'},
      {id: 'beta', why: 'trigger "beta"', chars: '- Beta (beta) [may]\n'.length, home: 'project'},
    ])
  })

  it('counts characters, not UTF-16 units; one card in two parts is one card, its sizes added and its whys joined', () => {
    const zh = '- 登录测试 (login-zh): 不稳定 🙂'
    const path = '- [must] Login (login-zh): x'
    const printed = `${zh}\n\n${path}`
    expect(printedCards([entry('login-zh', zh), entry('login-zh', path, 'path src/login/**')], printed)).toEqual([
      {id: 'login-zh', why: 'trigger "login-zh"; path src/login/**', chars: 24 + path.length, home: 'project'},
    ])
    // 24 characters, 25 UTF-16 units (the emoji is two).
    expect([[...zh].length, zh.length]).toEqual([24, 25])
  })

  it('a why is cut to 80 characters, its spaces folded', () => {
    const long = `trigger "${'word '.repeat(30)}"`
    const [card] = printedCards([entry('alpha', a, long)], a)
    expect([...card.why].length).toBe(80)
    expect(card.why.endsWith('…')).toBe(true)
    expect(card.why).not.toContain('  ')
  })
})

describe('receipt lines', () => {
  const r = {
    ts: '2026-11-29T10:00:00Z',
    session: 's',
    client: 'claude',
    event: 'session-start',
    cards: [{id: 'alpha', why: 'core', chars: 10}],
    chars: 20,
  }

  it('reads back what it writes; a session id past 128 characters is cut', () => {
    expect(asReceipt(JSON.parse(receiptLine(r)))).toEqual(r)
    expect(asReceipt(JSON.parse(receiptLine({...r, session: 'x'.repeat(300)})))?.session).toBe('x'.repeat(128))
  })

  it('a line that is not a receipt is none; a time with an offset is read in UTC seconds', () => {
    for (const bad of [
      {...r, ts: 'yesterday'},
      {...r, chars: -1},
      {...r, chars: 1.5},
      {...r, cards: [{id: 'alpha', why: 'core'}]},
      {...r, cards: 'alpha'},
      {...r, session: 3},
      {event: 'edit', ts: r.ts},
      null,
    ])
      expect(asReceipt(bad)).toBeNull()
    expect(asReceipt({...r, ts: '2026-11-29T11:00:00.250+01:00'})?.ts).toBe('2026-11-29T10:00:00Z')
    expect(asReceipt({...r, cards: [{id: 'alpha', why: 'core', chars: 1, store: 'personal'}], more: 3})).toEqual({
      ...r,
      cards: [{id: 'alpha', why: 'core', chars: 1, store: 'personal'}],
      more: 3,
    })
  })
})

describe('sinceInstant', () => {
  const now = new Date('2026-11-29T10:00:00Z')
  it.each([
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T09:30:00+02:00', '2026-11-01T07:30:00.000Z'],
    ['7d', '2026-11-22T10:00:00.000Z'],
    ['12h', '2026-11-28T22:00:00.000Z'],
    ['2w', '2026-11-15T10:00:00.000Z'],
    [' 1d ', '2026-11-28T10:00:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(sinceInstant(text, now)?.toISOString()).toBe(iso)
  })

  it.each(['notadate', '2026-02-30', '2026-13-01', '7 days', '-7d', '7m', '', '2026/11/01'])(
    '%j is no instant',
    text => {
      expect(sinceInstant(text, now)).toBeUndefined()
    },
  )
})
