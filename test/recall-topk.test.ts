import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importOme} from '../src/app/import-ome.js'
import {type PromptRecallResult, recallStores, runMatch} from '../src/app/prompt-recall.js'
import {signalRegistry} from '../src/recall/index.js'
import {isShortQuery} from '../src/recall/match/evidence.js'
import {analysePrompt} from '../src/recall/match/prompt.js'
import {rankCeiling} from '../src/recall/match/topk.js'
import type {Context} from '../src/context.js'
import {useIndex} from '../src/recall/open.js'
import {initRepo, prng, ROOT} from './helpers.js'
import {plantCard, sessionRepo} from './recall-index-helpers.js'

// The prompt hook's bounded top k (matchTopK) against the exhaustive matcher (runMatch without
// `bounded`, which judges every candidate): the same cards, order, scores, ranks and text.

const SUITES = path.resolve(ROOT, '..', 'shared', 'evals', 'ome')

interface Ask {
  label: string
  prompt: string
  paths?: string[]
  limit?: number
}

/** What the caller gets: text, cards (score and rank included) and the verdict of each card shown. */
const shown = (r: PromptRecallResult) => ({text: r.text, cards: r.cards, verdicts: r.match.selected.map(c => `${c.doc.id}: ${c.verdict}`)})

/** Runs every ask both ways on one open of the index; returns the cards judged each way, summed. */
async function expectSame(ctx: Context, asks: readonly Ask[]): Promise<{bounded: number; exhaustive: number; must: number}> {
  const stores = recallStores(ctx)
  return useIndex(stores, async index => {
    const registry = await signalRegistry(index.signals)
    const totals = {bounded: 0, exhaustive: 0, must: 0}
    for (const {label, ...input} of asks) {
      const exhaustive = runMatch(stores, index, input, registry)
      const bounded = runMatch(stores, index, {...input, bounded: true}, registry)
      expect(shown(bounded), `${label}: ${input.prompt} (limit ${input.limit})`).toEqual(shown(exhaustive))
      totals.bounded += bounded.considered
      totals.exhaustive += exhaustive.considered
      totals.must += exhaustive.cards.filter(c => c.policy === 'must').length
    }
    return totals
  })
}

describe('bounded top k on the evaluation suites', () => {
  it.skipIf(!fs.existsSync(SUITES))('gives every case of every suite exactly what judging every candidate gives, at 1, 2, 4 and 50 cards', async () => {
    const suites = [...['core', 'held-out', 'pairwise'].map(n => path.join(SUITES, n)), path.join(ROOT, 'evals/cairn-bilingual')]
    let cases = 0
    for (const base of suites) {
      const repo = await initRepo()
      await importOme(repo.ctx(), {path: `${base}.cards.json`, activate: true})
      const suite = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as {cases: {id: string; prompt: string}[]}
      const asks = suite.cases.flatMap(c => [1, 2, undefined, 50].map(limit => ({label: `${path.basename(base)}/${c.id}`, prompt: c.prompt, limit})))
      const totals = await expectSame(repo.ctx(), asks)
      expect(totals.bounded, base).toBeLessThanOrEqual(totals.exhaustive)
      cases += suite.cases.length
    }
    expect(cases).toBeGreaterThanOrEqual(100)
  })

  it('gives the recall fixture (must cards, a narrow card, a personal store) what judging every candidate gives', async () => {
    const repo = await sessionRepo()
    const prompts = [
      'Before commit, run git status and keep the staged diff clean', 'validate the page in a real browser', '真实浏览器里做浏览器验证',
      'write the commit message subject', 'merge config arrays', 'npm pack and test the tarball install', 'Title core-commit-message-style',
      'Summary of core-shared-with-personal', '只改文档，不过 real browser 浏览器验证', 'rename the quarterly vacation spreadsheet colours',
    ]
    const asks = prompts.flatMap(prompt => [1, 2, undefined].flatMap(limit => [
      {label: 'fixture', prompt, limit},
      {label: 'fixture, src/config', prompt, limit, paths: ['src/config/json.ts']},
    ]))
    const totals = await expectSame(repo.ctx(), asks)
    expect(totals.must).toBeGreaterThan(0)
  })
})

const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'te', 'so', 'na', 'vi', 'de', 'po', 'gu', 'ze', 'fa', 'bi', 'ho', 'ne']
const ZH = ['缓存', '索引', '查询', '部署', '发布', '测试', '队列', '重试', '超时', '日志', '权限', '回滚', '分支', '合并', '文档', '性能']
const AREAS = ['api', 'web', 'db', 'jobs', 'auth', 'billing', 'search', 'infra']

/** A vocabulary of made-up words, drawn Zipf-like (word k about as often as 1/(k+1)), with some Chinese. */
function vocabulary(rnd: () => number) {
  const words = Array.from({length: 600}, (_, k) => `${SYLLABLES[k % 16]}${SYLLABLES[(k >> 4) % 16]}${SYLLABLES[(k * 7 + 3) % 16]}x`)
  const word = () => (rnd() < 0.08 ? ZH[Math.floor(rnd() * ZH.length)] : words[Math.floor(Math.exp(rnd() * Math.log(words.length + 1))) - 1])
  const some = (lo: number, hi: number) => Array.from({length: lo + Math.floor(rnd() * (hi - lo + 1))}, word)
  return {word, some, phrase: (lo: number, hi: number) => some(lo, hi).join(' ')}
}

describe('bounded top k on a randomised library', () => {
  it('gives random prompts over 1,500 Zipf-worded cards (must cards, narrow cards) exactly what judging every candidate gives', async () => {
    const rnd = prng(20261201)
    const v = vocabulary(rnd)
    const repo = await initRepo()
    const store = path.join(repo.dir, '.cairn')
    const phrases: string[] = []
    for (let k = 0; k < 1500; k++) {
      const triggers = Array.from({length: Math.floor(rnd() * 4)}, () => v.phrase(1, 3))
      phrases.push(...triggers)
      const u = rnd()
      const scope = u < 0.1 ? {level: 'global', paths: [`src/${AREAS[k % AREAS.length]}/**`]} : {level: 'global'}
      plantCard(store, `random-card-${String(k).padStart(4, '0')}`, {
        title: v.phrase(3, 5), summary: `${v.phrase(8, 14)}.`, keywords: v.some(0, 2),
        criteria: {use_when: Array.from({length: Math.floor(rnd() * 3)}, () => v.phrase(2, 3)), ignore_when: rnd() < 0.2 ? [v.phrase(2, 2)] : []},
        recall: {policy: rnd() < 0.04 ? 'must' : rnd() < 0.2 ? 'may' : 'should', triggers, topics: v.some(0, 2)},
        scope,
      }, `${v.phrase(10, 30)}.`)
    }
    const asks: Ask[] = []
    for (let k = 0; k < 200; k++) {
      const words = v.some(2, 9)
      // Most prompts carry a card's trigger, so many cards are admitted and the bound has work to do.
      if (rnd() < 0.7) words.splice(Math.floor(rnd() * words.length), 0, phrases[Math.floor(rnd() * phrases.length)])
      if (rnd() < 0.3) words.push(phrases[Math.floor(rnd() * phrases.length)])
      const paths = rnd() < 0.3 ? [`src/${AREAS[Math.floor(rnd() * AREAS.length)]}/x.ts`] : undefined
      const limit = rnd() < 0.3 ? undefined : 1 + Math.floor(rnd() * 6)
      asks.push({label: `prompt ${k}`, prompt: words.join(' '), paths, limit})
    }
    const totals = await expectSame(repo.ctx(), asks)
    // The bound did prune, and must cards were shown along the way.
    expect(totals.bounded * 3).toBeLessThan(totals.exhaustive)
    expect(totals.must).toBeGreaterThanOrEqual(10)

    // Each admitted card's rank is within the bound the index gives it before decoding it.
    const stores = recallStores(repo.ctx())
    const checked = await useIndex(stores, async index => {
      const registry = await signalRegistry(index.signals)
      let n = 0
      for (const ask of asks.slice(0, 30)) {
        const exhaustive = runMatch(stores, index, {...ask, limit: 1000}, registry)
        const pv = analysePrompt(ask.prompt, registry, ask.paths, keys => index.expand(keys))
        const words = new Set(pv.words)
        const whole = {has: (t: string) => pv.expandedForms.has(t) || words.has(t)}
        const terms = [...pv.active].filter(([, w]) => w > 0).map(([t]) => t)
        const b = index.bounded(terms, pv.expanded.keys(), isShortQuery(pv), whole, pv.active)
        const bound = new Map<string, number>()
        for (let k = 0; k < b.records.length; k++) bound.set(b.doc(b.records[k]).id, b.bounds[k])
        const must = b.must.map(i => b.doc(i).id).sort()
        expect(must, ask.prompt).toEqual(exhaustive.match.considered.filter(c => c.doc.policy === 'must').map(c => c.doc.id).sort())
        for (const c of exhaustive.match.considered) {
          if (!c.admitted || c.doc.policy === 'must') continue
          expect(rankCeiling(bound.get(c.doc.id) ?? 0), `${c.doc.id}: ${ask.prompt}`).toBeGreaterThanOrEqual(c.rank)
          n++
        }
      }
      return n
    })
    expect(checked).toBeGreaterThan(150)
  }, 240_000)
})
