import {describe, expect, it} from 'vitest'
import {applyBatch} from '../../src/domain/board/apply.js'
import {diffStates} from '../../src/domain/board/diff.js'
import {buildPanels} from '../../src/domain/board/overview/model.js'
import {selectScope} from '../../src/domain/board/overview/scope.js'
import {renderPanelSvg} from '../../src/domain/board/overview/svg.js'
import {DEFAULT_VIEW, type OverviewView} from '../../src/domain/board/overview/view.js'
import {parseCommitRequest} from '../../src/domain/board/request.js'
import {applyEffects} from '../../src/domain/board/state.js'
import {type BoardSettings, DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {type BoardState, emptyState} from '../../src/domain/board/types.js'
import {T, US03} from './helpers.js'
import {RESHAPE} from './overview-fixtures.js'
import {labelsFit, measuredBoxes, rects, texts} from './svg-geometry.js'

/** The picture's rules that need a state no batch can make alone (a conflict, an over-budget child layer), in process. */

function apply(state: BoardState, batch: unknown, now: string, settings = DEFAULT_BOARD_SETTINGS): BoardState {
  const parsed = parseCommitRequest(batch, 'agent-1')
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  const applied = applyBatch(state, parsed.request, now, settings)
  if (!applied.ok) throw new Error(JSON.stringify(applied.errors))
  return applyEffects(state, applied.effects)
}

const setup = apply(emptyState(), US03, T(8, 8))
const reshaped = apply(setup, RESHAPE, T(12))

function draw(
  state: BoardState,
  opts: {settings?: BoardSettings; view?: OverviewView; from?: BoardState; conflicts?: Set<string>} = {},
) {
  const settings = opts.settings ?? DEFAULT_BOARD_SETTINGS
  const view = opts.view ?? DEFAULT_VIEW
  const diff = opts.from ? diffStates(opts.from, state, T(18)) : null
  const scope = selectScope(state, settings, view, diff, 'view.json')
  return buildPanels({state, from: opts.from ?? null, diff}, settings, {
    view,
    now: T(18),
    scope,
    conflicts: opts.conflicts,
  }).map(p => ({
    name: p.name,
    ...renderPanelSvg(p, {store: 'project', now: T(18)}),
  }))
}

describe('overview pictures', () => {
  it('an item changed on two branches is flagged "conflict" in its box and in the legend', () => {
    const [root, trip] = draw(reshaped, {conflicts: new Set(['visa', 'prs'])})
    expect([root.name, trip.name]).toEqual(['now-root', 'now-under-trip'])
    for (const svg of [root.svg, trip.svg]) {
      const marked = rects(svg)
        .filter(r => r.attrs['data-marks'])
        .map(r => [r.attrs['data-item'], r.attrs['data-marks']])
      expect(marked).toEqual(
        svg === root.svg
          ? [
              ['visa', 'conflict'],
              ['prs', 'conflict'],
            ]
          : [['visa', 'conflict']],
      )
      expect(texts(svg).map(t => t.text)).toContain('conflict (changed on two branches)')
    }
    expect(draw(reshaped).some(p => p.svg.includes('conflict'))).toBe(false)
  })

  it('a child layer over budget fills its parent to its used total, and both pictures say so', () => {
    // A larger weight-3 share in the config after the fact: the trip layer holds 35 + 20 = 55 of its budget 50.
    const settings = {...DEFAULT_BOARD_SETTINGS, weight_shares: {...DEFAULT_BOARD_SETTINGS.weight_shares, 3: 20}}
    const [root, trip] = draw(reshaped, {settings})
    expect(measuredBoxes(root.svg)).toEqual([
      ['now', '', 'item', 'trip', 20],
      ['now', 'trip', 'item', 'visa', 35],
      ['now', 'trip', 'item', 'flight', 20],
      ['now', '', 'item', 'weekly-report', 20],
      ['now', '', 'item', 'prs', 6],
      ['now', '', 'free', null, 54],
    ])
    expect(rects(root.svg).find(r => r.attrs['data-item'] === 'trip')!.attrs).toMatchObject({
      'data-child-budget': '50',
      'data-child-used': '55',
    })
    expect(texts(root.svg).map(t => t.text)).toContain('over budget')
    expect(measuredBoxes(trip.svg)).toEqual([
      ['now', 'trip', 'item', 'visa', 35],
      ['now', 'trip', 'item', 'flight', 20],
    ])
    expect(texts(trip.svg).map(t => t.text)).toEqual(
      expect.arrayContaining([
        'over budget: used 55 of 50; boxes are drawn to the used total',
        'used 55 of 50 · over by 5',
      ]),
    )
  })

  it('changes only: a move is "moved out" where the item was and "moved in" where it is; the rest is one "not shown" area', () => {
    const moved = apply(
      reshaped,
      {batch_id: 'move', declarations: [{op: 'supersedes', id: 'flight', parent: null, kind: 'result', weight: 3}]},
      T(13),
    )
    const view = {...DEFAULT_VIEW, changes_only: true}
    const [root, trip] = draw(moved, {from: reshaped, view})
    expect(measuredBoxes(root.svg)).toEqual([
      ['then', '', 'not_shown', null, 46],
      ['then', '', 'free', null, 54],
      ['now', '', 'item', 'flight', 12],
      ['now', '', 'not_shown', null, 46],
      ['now', '', 'free', null, 42],
    ])
    expect(rects(root.svg).find(r => r.attrs['data-item'] === 'flight')!.attrs['data-marks']).toBe('moved_in')
    // The child layer drawn in the root's then half keeps the mover, marked where it left from.
    expect(measuredBoxes(trip.svg)).toEqual([
      ['then', 'trip', 'item', 'flight', 12],
      ['then', 'trip', 'not_shown', null, 35],
      ['then', 'trip', 'free', null, 3],
      ['now', 'trip', 'not_shown', null, 35],
      ['now', 'trip', 'free', null, 15],
    ])
    expect(rects(trip.svg).find(r => r.attrs['data-item'] === 'flight')!.attrs['data-marks']).toBe('moved_out')
    expect(texts(root.svg).map(t => t.text)).toContain('moved in')
    expect(texts(trip.svg).map(t => t.text)).toContain('moved out')
  })

  it('labels are shortened to their box and never overflow it; a box too small for its id gets no label', () => {
    const long = apply(
      emptyState(),
      {
        batch_id: 'long',
        declarations: [
          {
            op: 'new',
            id: 'big',
            kind: 'topic',
            weight: 5,
            budget: 600,
            summary: `${'A long summary that goes on '.repeat(12)}and ends.`,
          },
          ...Array.from({length: 30}, (_, i) => ({
            op: 'new',
            id: `kid-${i}`,
            parent: 'big',
            kind: 'progress',
            weight: 1,
            summary: `Kid ${i}.`,
          })),
          {
            op: 'new',
            id: 'a-very-long-item-identifier-that-cannot-fit',
            kind: 'finding',
            weight: 1,
            summary: '短的中文摘要：只有用户能提供银行对账单。',
          },
          ...Array.from({length: 5}, (_, i) => ({
            op: 'new',
            id: `cjk-${i}`,
            kind: 'request',
            weight: 2,
            summary: '签证代理需要银行对账单，只有用户本人能够提供，周五之前必须完成。'.repeat(2),
          })),
        ],
      },
      T(8),
    )
    const [root, big] = draw(long)
    expect(labelsFit(root.svg)).toBeGreaterThan(10)
    expect(labelsFit(big.svg)).toBeGreaterThan(30)
    const shown = texts(root.svg).map(t => t.text)
    expect(shown.filter(t => t.startsWith('big · A long summary that goes on')).map(t => t.endsWith('…'))).toEqual([
      true,
    ])
    // A long id keeps a long start; the 30 children of "big" are drawn, 29 px wide, too small to name.
    expect(shown).toContain('cjk-0')
    expect(shown.filter(t => t.startsWith('a-very-long-')).map(t => [...t].length > 12 && t.endsWith('…'))).toEqual([
      true,
    ])
    expect(rects(root.svg).filter(r => r.attrs['data-layer'] === 'big' && r.attrs['data-box'] === 'item')).toHaveLength(
      30,
    )
    expect(shown.filter(t => t.startsWith('kid-'))).toEqual([])
    expect(texts(big.svg).map(t => t.text)).toEqual(expect.arrayContaining(['kid-0', 'kid-29']))
  })
})
