import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importOme} from '../src/app/import-ome.js'
import {promptRecall, type PromptRecallResult, recallStores, runMatch} from '../src/app/prompt-recall.js'
import {getRule} from '../src/domain/card/sections.js'
import {signalRegistry} from '../src/recall/index.js'
import {loadTranslator} from '../src/recall/lexicon.js'
import {statsOf} from '../src/recall/match/bm25.js'
import {buildDoc, type CardDoc, minCoverage} from '../src/recall/match/doc.js'
import {
  conceptBound,
  isShortQuery,
  phraseBound,
  type PhraseReach,
  phraseScore,
  phraseScoreBound,
  positiveBound,
  positiveScore,
  shortReach,
  strengthBound,
  unitsBound,
  wordStrength,
  writtenStrength,
} from '../src/recall/match/evidence.js'
import {type MatchResult, matchCards} from '../src/recall/match/match.js'
import {analysePrompt, type Expand} from '../src/recall/match/prompt.js'
import {rankCeiling} from '../src/recall/match/topk.js'
import {useIndex} from '../src/recall/open.js'
import {readCardFile} from '../src/store/cards/card-file.js'
import {type Context, createContext} from '../src/context.js'
import {projectStoreAt} from '../src/store/layout.js'
import {initRepo, prng, ROOT} from './helpers.js'
import {plantCard, sessionRepo} from './recall-index-helpers.js'

/**
 * The admission bounds beside the scores they bound. src/recall/match/evidence.ts keeps each upper
 * bound next to the piece of matchPhrase's score it bounds (phraseBound by writtenStrength, unitsBound
 * by wordStrength, ...); src/recall/candidates.ts walks the index's postings into what those bounds
 * read, and skips, without decoding them, the cards that cannot be admitted, and ranks the rest by a
 * bound of their bm25 (matchTopK, topk.ts, stops where the next bound cannot be shown). A change to a
 * score is checked here three ways: each bound against its score, on random inputs and on cases
 * worked by hand; the pruned candidates against scoring every card; and the bounded top k against
 * judging every candidate.
 */

const SUITES = path.resolve(ROOT, '..', 'shared', 'evals', 'ome')

describe('each bound beside its score (evidence.ts)', () => {
  const rnd = prng(20261202)
  /** A weight as the index keeps it: whole quarters of a word, from 0 to most quarters. */
  const quarters = (most: number) => Math.floor(rnd() * (most + 1)) / 4
  const TITLE = minCoverage('title')
  /** Whether a match of this coverage admits a title: as matchPhrase rounds it, to thousandths. */
  const reaches = (cov: number, min: number) => Math.round(cov * 1000) / 1000 >= min

  /**
   * A phrase as written, as the scorer sees it and as the index's postings bound it: the weight of
   * its terms outside compound tokens the prompt holds (matched), of its compound tokens (slack), some
   * of which the prompt may hold too; exact only when every term outside a compound is held.
   */
  function written() {
    const total = (1 + Math.floor(rnd() * 40)) / 4
    const slack = quarters(total * 4)
    const matched = rnd() < 0.2 ? total - slack : quarters((total - slack) * 4)
    const cov = (matched + rnd() * slack) / total
    const exact = matched + slack >= total && rnd() < 0.5
    return {total, slack, matched, cov, exact}
  }

  /**
   * A phrase word by word: its concept units, each unmet, met in the prompt's own words, or met
   * through the lexicon by English of some words; as the scorer sees it (unitsMet) and as the index's
   * postings bound it (the words of a form may be counted above what met it).
   */
  function byWord() {
    let total = 0
    let got = 0
    let own = 0
    let weight = 0
    let words = 0
    const via: string[] = []
    for (let u = 1 + Math.floor(rnd() * 5); u > 0; u--) {
      const w = (1 + Math.floor(rnd() * 8)) / 4
      total += w
      const how = rnd()
      if (how < 0.3) continue
      const english = Math.floor(rnd() * 4)
      got += w
      if (how < 0.6) own += w
      else via.push('form (from key)')
      weight += Math.max(w, english)
      words += Math.max(w, english + Math.floor(rnd() * 2))
    }
    return {c: {cov: got / total, weight, via}, bound: {own, got, words, unitTotal: total}}
  }

  it("phraseBound bounds writtenStrength from above, and with a title's share, every match that admits", () => {
    for (let k = 0; k < 5000; k++) {
      const p = written()
      const strength = writtenStrength(p.exact, p.cov)
      expect(phraseBound(p.matched, p.total, p.slack), JSON.stringify(p)).toBeGreaterThanOrEqual(strength)
      if (p.exact || reaches(p.cov, TITLE))
        expect(phraseBound(p.matched, p.total, p.slack, TITLE), JSON.stringify(p)).toBeGreaterThanOrEqual(strength)
    }
  })

  it("conceptBound and unitsBound bound wordStrength from above, and with a title's share, every match that admits", () => {
    for (let k = 0; k < 5000; k++) {
      const {c, bound} = byWord()
      const strength = wordStrength(c)
      const at = JSON.stringify({c, bound})
      expect(unitsBound(bound), at).toBeGreaterThanOrEqual(strength)
      if (reaches(c.cov, TITLE)) expect(unitsBound(bound, TITLE), at).toBeGreaterThanOrEqual(strength)
      // Met in the prompt's own words alone, the units' own weight bounds it, even counted above what met them.
      if (!c.via.length)
        expect(conceptBound(bound.own + quarters(4), bound.unitTotal), at).toBeGreaterThanOrEqual(strength)
    }
  })

  it("strengthBound bounds matchPhrase's strength, the better of the phrase as written and word by word", () => {
    for (let k = 0; k < 5000; k++) {
      const p = written()
      const {c, bound} = byWord()
      const units = rnd() < 0.5
      const r: PhraseReach = {
        written: true,
        matched: p.matched,
        total: p.total,
        slack: p.slack,
        min: TITLE,
        concepts: 0,
        english: 0,
        units,
        ...bound,
        unitMin: TITLE,
      }
      const direct = writtenStrength(p.exact, p.cov)
      const words = units && !p.exact ? wordStrength(c) : 0
      const strength = Math.max(direct, words)
      const shown = words > direct ? c.cov : p.cov
      const at = JSON.stringify({p, c, r})
      expect(strengthBound(r, false), at).toBeGreaterThanOrEqual(strength)
      if (p.exact || reaches(shown, TITLE)) expect(strengthBound(r, true), at).toBeGreaterThanOrEqual(strength)
    }
  })

  it('phraseScoreBound and positiveBound bound phraseScore and positiveScore from bounds of what they read', () => {
    for (let k = 0; k < 5000; k++) {
      const s = rnd()
      const b = s + (rnd() < 0.3 ? 0 : rnd() * 0.1)
      const admitting = rnd() < 0.5
      expect(phraseScoreBound(b, admitting)).toBeGreaterThanOrEqual(phraseScore(s, admitting))
      const [strong, support] = [rnd() * 2, rnd() * 2]
      const [moreStrong, moreSupport] = [strong + rnd() * 0.5, support + rnd() * 0.5]
      expect(positiveBound(moreStrong, moreSupport)).toBeGreaterThanOrEqual(positiveScore(strong, support))
    }
  })

  it('gives the values worked by hand', () => {
    // Half a phrase's weight held: 0.8 · 0.5^1.5; a compound's weight makes up the rest: whole.
    expect(phraseBound(1, 2, 0)).toBeCloseTo(0.282843, 6)
    expect(phraseBound(2, 3, 1)).toBe(1)
    // Three quarters of a title is above its share (0.6): 0.8 · 0.75^1.5; a quarter is below: none.
    expect(phraseBound(3, 4, 0, TITLE)).toBeCloseTo(0.519615, 6)
    expect(phraseBound(1, 4, 0, TITLE)).toBe(0)
    // Word by word: capped at the whole phrase, which still scores as a partial match.
    expect(conceptBound(3, 2)).toBeCloseTo(0.8, 12)
    expect(conceptBound(1, 2, TITLE)).toBe(0)
    // Through the lexicon: 0.85 of it by two words or more, 0.85 · 0.6 by one.
    expect(unitsBound({own: 0, got: 2, words: 2, unitTotal: 2})).toBeCloseTo(0.68, 12)
    expect(unitsBound({own: 0, got: 2, words: 1, unitTotal: 2})).toBeCloseTo(0.408, 12)
    // Half met in the prompt's own words (0.8 · 0.5^1.5) is below all met through one translated word.
    expect(unitsBound({own: 1, got: 2, words: 1, unitTotal: 2})).toBeCloseTo(0.408, 12)
    const reach: PhraseReach = {
      written: true,
      matched: 1,
      total: 2,
      slack: 0,
      min: 0,
      concepts: 2,
      english: 2,
      units: false,
      own: 0,
      got: 0,
      words: 0,
      unitTotal: 0,
      unitMin: 0,
    }
    // Half the phrase as written (0.283), but both its English words, each a unit of its own (0.8).
    expect(strengthBound(reach, true)).toBeCloseTo(0.8, 12)
    // A title with a quarter of its weight held admits nothing, and supports with 0.8 · 0.25^1.5 at half.
    const title = {...reach, matched: 1, total: 4, min: TITLE, concepts: 0, english: 0}
    expect(strengthBound(title, true)).toBe(0)
    expect(strengthBound(title, false)).toBeCloseTo(0.1, 12)
    expect(phraseScoreBound(strengthBound(title, false), false)).toBe(0.05)
    // Rounded up to thousandths, where the score rounds to the nearest.
    expect([phraseScoreBound(0.4081, true), phraseScore(0.4081, true)]).toEqual([0.409, 0.408])
    expect([phraseScoreBound(0.4081, false), phraseScore(0.4081, false)]).toEqual([0.205, 0.204])
    // Supporting phrases add at most what admitting ones did.
    expect(positiveBound(0.3, 0.5)).toBeCloseTo(0.6, 12)
    expect(positiveBound(0.5, 0.1)).toBeCloseTo(0.6, 12)
  })
})

describe('pruned candidates against scoring every card', () => {
  it.skipIf(!fs.existsSync(SUITES))(
    "the index's pruned candidates admit exactly what scoring every card admits, for every suite prompt",
    async () => {
      const suites = [
        ...['core', 'held-out', 'pairwise'].map(n => path.join(SUITES, n)),
        path.join(ROOT, 'evals/cairn-bilingual'),
      ]
      for (const base of suites) {
        const repo = await initRepo()
        await importOme(repo.ctx(), {path: `${base}.cards.json`, activate: true})
        const suite = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8'))
        await expectPrunedIsExhaustive(
          repo.ctx(),
          repo.dir,
          suite.cases.map((c: {id: string; prompt: string}) => ({
            label: `${path.basename(base)}/${c.id}`,
            prompt: c.prompt,
          })),
        )
      }
    },
  )

  it('the pruned candidates admit exactly what scoring every card admits on the hard shapes: lone characters, stop-word stems, compounds, short Chinese queries', async () => {
    const card = (id: string, title: string, recall: Record<string, unknown>, keywords: string[] = []) => ({
      id,
      title,
      summary: title,
      category: 'general',
      criteria: {use_when: [], ignore_when: []},
      recall: {policy: 'should', ...recall},
      keywords,
      scope: {level: 'global'},
    })
    const cards = [
      card('lone-characters-deploy-card', 'Cluster service rollout', {triggers: ['部署', '服务', '集群']}),
      card('stop-word-stem-owned-files', 'Root ownership of files', {triggers: ['files owned by root']}),
      card('compound-keyword-release-list', 'Release checklist', {triggers: ['release checklist owner']}, ['to-do']),
      card('compound-only-keyword-card', 'Nothing else in common', {triggers: ['quarterly spreadsheet colours']}, [
        'how-to',
      ]),
      card('compound-phrase-pre-commit', 'Hooks before a commit', {triggers: ['pre-commit hook skips staged files']}),
      card('short-chinese-lock-table-card', 'Locked tables in migrations', {triggers: ['migration lock wait']}, [
        '表格被锁定',
      ]),
      card('single-character-trigger-lock', 'Locks', {triggers: ['锁']}),
    ]
    const repo = await initRepo()
    const file = path.join(path.dirname(repo.dir), 'hard.cards.json')
    fs.writeFileSync(file, JSON.stringify(cards))
    await importOme(repo.ctx(), {path: file, activate: true})
    const prompts = [
      '部门署名，服装任务，集合群组',
      'change which user can own files under the root directory',
      'update the release checklist to-do items',
      'to-do',
      'how-to',
      'why does the hook skip staged files',
      '锁表',
      '队列锁',
      '锁',
    ]
    const admitted = await expectPrunedIsExhaustive(
      repo.ctx(),
      repo.dir,
      prompts.map((prompt, k) => ({label: `hard/${k}`, prompt})),
    )
    // Scattered characters of three triggers are no match; a stop word is no evidence; the rest are found.
    expect(admitted).toEqual([0, 0, 1, 1, 1, 1, 2, 1, 1])
  })

  it('the pruned candidates admit exactly what scoring every card admits, on a random bilingual library', async () => {
    // Words the lexicon knows in both languages, so cards meet prompts across them, and words it does not.
    const EN = [
      'cache',
      'index',
      'query',
      'timeout',
      'login',
      'session',
      'deploy',
      'rollback',
      'queue',
      'retry',
      'merge conflict',
      'database',
      'migration',
      'config',
      'token',
      'permission',
      'log',
      'test',
      'release',
      'branch',
      'worker',
      'lease',
      'browser',
      'page',
    ]
    const ZH = [
      '缓存',
      '索引',
      '查询',
      '超时',
      '登录',
      '会话',
      '部署',
      '回滚',
      '队列',
      '重试',
      '合并冲突',
      '数据库',
      '迁移',
      '配置',
      '令牌',
      '权限',
      '日志',
      '测试',
      '发布',
      '分支',
      '页面',
      '浏览器',
      '锁',
      '表',
    ]
    let x = 20261130
    const rnd = () => {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      return (x >>> 0) / 4294967296
    }
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]
    const phrase = (zh: boolean, most: number) => {
      const words = Array.from({length: 1 + Math.floor(rnd() * most)}, () => pick(zh ? ZH : EN))
      return words.join(zh ? '' : ' ')
    }
    const cards = Array.from({length: 240}, (_, i) => {
      const zh = rnd() < 0.4
      const tuned = rnd() < 0.7
      return {
        id: `random-bilingual-card-${String(i).padStart(3, '0')}`,
        title: phrase(zh, 4),
        summary: `${phrase(zh, 8)}${zh ? '。' : '.'}`,
        criteria: {use_when: tuned ? [phrase(zh, 3)] : [], ignore_when: rnd() < 0.2 ? [phrase(!zh, 2)] : []},
        recall: {
          policy: rnd() < 0.1 ? 'must' : 'should',
          triggers: tuned ? [phrase(zh, 3), phrase(zh, 2)] : [],
          topics: [pick(zh ? ZH : EN)],
        },
        scope: {level: 'global'},
        rule: phrase(zh, 12),
      }
    })
    const repo = await initRepo()
    const file = path.join(path.dirname(repo.dir), 'random.cards.json')
    fs.writeFileSync(file, JSON.stringify(cards))
    await importOme(repo.ctx(), {path: file, activate: true})
    const prompts = Array.from({length: 150}, (_, k) => {
      const parts = Array.from({length: 1 + Math.floor(rnd() * 4)}, () =>
        rnd() < 0.15 ? 'please fix the thing' : phrase(rnd() < 0.5, 3),
      )
      // Some prompts run past the part the lexicon expands (EXPAND_CHARS): their last words are met only as written.
      const long = k % 25 === 24 ? `${'please fix the thing and keep going. '.repeat(120)} ` : ''
      return {label: `random/${k}`, prompt: long + parts.join(' ')}
    })
    const admitted = await expectPrunedIsExhaustive(repo.ctx(), repo.dir, prompts)
    // The library and prompts exercise the bound: prompts that admit cards, across languages too.
    expect(admitted.filter(n => n > 0).length).toBeGreaterThan(75)
  })
})

/**
 * For each prompt: the prompt path (index, pruned candidates) admits and selects exactly the cards
 * that scoring every card of the store admits and selects. Returns the number admitted per prompt.
 */
async function expectPrunedIsExhaustive(
  ctx: ReturnType<typeof createContext>,
  dir: string,
  prompts: {label: string; prompt: string}[],
): Promise<number[]> {
  const all = await everyCard(dir)
  const counts: number[] = []
  for (const {label, prompt} of prompts) {
    const admitted = (r: MatchResult) =>
      r.considered
        .filter(k => k.admitted)
        .map(k => k.doc.id)
        .sort()
    const viaIndex = await promptRecall(ctx, {prompt})
    const exhaustive = matchCards(
      all.docs,
      analysePrompt(prompt, viaIndex.registry, [], keys => all.expand(keys)),
      statsOf(all.docs),
      {
        registry: viaIndex.registry,
        projectKey: null,
        maxCards: 4,
      },
    )
    expect(admitted(viaIndex.match), `${label} ${prompt}`).toEqual(admitted(exhaustive))
    expect(
      viaIndex.cards.map(c => c.id),
      label,
    ).toEqual(exhaustive.selected.map(c => c.doc.id))
    expect(viaIndex.considered).toBeLessThanOrEqual(all.docs.length)
    // The bounded path's candidates (a short query's by its ShortReach) hold every card admitted.
    const reached = await boundedCandidates(ctx, prompt)
    expect(
      admitted(exhaustive).filter(id => !reached.has(id)),
      `${label} bounded candidates`,
    ).toEqual([])
    counts.push(admitted(exhaustive).length)
  }
  return counts
}

/** The ids of the cards the bounded path (matchTopK) may judge for a prompt: its admissible records. */
async function boundedCandidates(ctx: Context, prompt: string): Promise<Set<string>> {
  return useIndex(recallStores(ctx), async index => {
    const registry = await signalRegistry(index.signals)
    const pv = analysePrompt(prompt, registry, [], keys => index.expand(keys))
    const words = new Set(pv.words)
    const whole = {has: (t: string) => pv.expandedForms.has(t) || words.has(t)}
    const terms = [...pv.active].filter(([, w]) => w > 0).map(([t]) => t)
    const b = index.bounded(terms, pv.expanded.keys(), shortReach(pv), whole, pv.active)
    return new Set(b.admissible().map(i => b.doc(i).id))
  })
}

/** Every active card of a store as the matcher sees it, parsed from its file, and the lexicon it is indexed with. */
async function everyCard(dir: string): Promise<{docs: CardDoc[]; expand: Expand}> {
  const store = projectStoreAt(dir)
  const tr = await loadTranslator(store)
  const docs: CardDoc[] = []
  const root = path.join(dir, '.cairn/cards')
  for (const type of fs.readdirSync(root)) {
    for (const name of fs.readdirSync(path.join(root, type))) {
      const rel = `.cairn/cards/${type}/${name}`
      const card = readCardFile(path.join(dir, rel), rel)
      docs.push(buildDoc(card, getRule(card.body) ?? '', {store: 'project', path: rel}, tr))
    }
  }
  return {docs, expand: keys => new Map(keys.map(k => [k, tr.forms(k)] as const).filter(([, f]) => f.length > 0))}
}

// The prompt hook's bounded top k (matchTopK) against the exhaustive matcher (runMatch without
// `bounded`, which judges every candidate): the same cards, order, scores, ranks and text.

interface Ask {
  label: string
  prompt: string
  paths?: string[]
  limit?: number
}

/** What the caller gets: text, cards (score and rank included) and the verdict of each card shown. */
const shown = (r: PromptRecallResult) => ({
  text: r.text,
  cards: r.cards,
  verdicts: r.match.selected.map(c => `${c.doc.id}: ${c.verdict}`),
})

/** Runs every ask both ways on one open of the index; returns the cards judged each way, summed. */
async function expectSame(
  ctx: Context,
  asks: readonly Ask[],
): Promise<{bounded: number; exhaustive: number; must: number}> {
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
  it.skipIf(!fs.existsSync(SUITES))(
    'gives every case of every suite exactly what judging every candidate gives, at 1, 2, 4 and 50 cards',
    async () => {
      const suites = [
        ...['core', 'held-out', 'pairwise'].map(n => path.join(SUITES, n)),
        path.join(ROOT, 'evals/cairn-bilingual'),
      ]
      let cases = 0
      for (const base of suites) {
        const repo = await initRepo()
        await importOme(repo.ctx(), {path: `${base}.cards.json`, activate: true})
        const suite = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as {cases: {id: string; prompt: string}[]}
        const asks = suite.cases.flatMap(c =>
          [1, 2, undefined, 50].map(limit => ({label: `${path.basename(base)}/${c.id}`, prompt: c.prompt, limit})),
        )
        const totals = await expectSame(repo.ctx(), asks)
        expect(totals.bounded, base).toBeLessThanOrEqual(totals.exhaustive)
        cases += suite.cases.length
      }
      expect(cases).toBeGreaterThanOrEqual(100)
    },
  )

  it('gives the recall fixture (must cards, a narrow card, a personal store) what judging every candidate gives', async () => {
    const repo = await sessionRepo()
    const prompts = [
      'Before commit, run git status and keep the staged diff clean',
      'validate the page in a real browser',
      '真实浏览器里做浏览器验证',
      'write the commit message subject',
      'merge config arrays',
      'npm pack and test the tarball install',
      'Title core-commit-message-style',
      'Summary of core-shared-with-personal',
      '只改文档，不过 real browser 浏览器验证',
      'rename the quarterly vacation spreadsheet colours',
    ]
    const asks = prompts.flatMap(prompt =>
      [1, 2, undefined].flatMap(limit => [
        {label: 'fixture', prompt, limit},
        {label: 'fixture, src/config', prompt, limit, paths: ['src/config/json.ts']},
      ]),
    )
    const totals = await expectSame(repo.ctx(), asks)
    expect(totals.must).toBeGreaterThan(0)
  })
})

const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'te', 'so', 'na', 'vi', 'de', 'po', 'gu', 'ze', 'fa', 'bi', 'ho', 'ne']
const ZH = [
  '缓存',
  '索引',
  '查询',
  '部署',
  '发布',
  '测试',
  '队列',
  '重试',
  '超时',
  '日志',
  '权限',
  '回滚',
  '分支',
  '合并',
  '文档',
  '性能',
]
const AREAS = ['api', 'web', 'db', 'jobs', 'auth', 'billing', 'search', 'infra']

/** A vocabulary of made-up words, drawn Zipf-like (word k about as often as 1/(k+1)), with some Chinese. */
function vocabulary(rnd: () => number) {
  const words = Array.from(
    {length: 600},
    (_, k) => `${SYLLABLES[k % 16]}${SYLLABLES[(k >> 4) % 16]}${SYLLABLES[(k * 7 + 3) % 16]}x`,
  )
  const word = () =>
    rnd() < 0.08
      ? ZH[Math.floor(rnd() * ZH.length)]
      : words[Math.floor(Math.exp(rnd() * Math.log(words.length + 1))) - 1]
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
      plantCard(
        store,
        `random-card-${String(k).padStart(4, '0')}`,
        {
          title: v.phrase(3, 5),
          summary: `${v.phrase(8, 14)}.`,
          keywords: v.some(0, 2),
          criteria: {
            use_when: Array.from({length: Math.floor(rnd() * 3)}, () => v.phrase(2, 3)),
            ignore_when: rnd() < 0.2 ? [v.phrase(2, 2)] : [],
          },
          recall: {policy: rnd() < 0.04 ? 'must' : rnd() < 0.2 ? 'may' : 'should', triggers, topics: v.some(0, 2)},
          scope,
        },
        `${v.phrase(10, 30)}.`,
      )
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
        const b = index.bounded(terms, pv.expanded.keys(), shortReach(pv), whole, pv.active)
        const bound = new Map<string, number>()
        for (let k = 0; k < b.records.length; k++) bound.set(b.doc(b.records[k]).id, b.bounds[k])
        // The must cards judged are among the candidates of the exhaustive path, and hold every must
        // card it admits: for a short query fewer (its ShortReach), else the same.
        const must = b.must.map(i => b.doc(i).id).sort()
        const considered = exhaustive.match.considered.filter(c => c.doc.policy === 'must')
        const ids = (cs: typeof considered) => cs.map(c => c.doc.id).sort()
        if (!isShortQuery(pv)) expect(must, ask.prompt).toEqual(ids(considered))
        expect(
          must.filter(id => !ids(considered).includes(id)),
          ask.prompt,
        ).toEqual([])
        expect(
          ids(considered.filter(c => c.admitted)).filter(id => !must.includes(id)),
          ask.prompt,
        ).toEqual([])
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

describe("the worst-case prompt's shape (issue 35)", () => {
  // bench/scenarios/hook-worst.js's library, at a size a test affords: every trigger is three words
  // of one 20-word team vocabulary, use_when two of them in English and in Chinese, and the prompt
  // holds six of the words, so many cards match a trigger fully and most meet some of its words.
  const EN =
    'retry budget queue worker deploy ledger timeout cache lease rollback release pipeline batch job migration shard replica token quota alert'
  const ZH = '重试 预算 队列 工作 部署 账本 超时 缓存 租约 回滚 发布 流水线 批量 任务 迁移 分片 副本 令牌 配额 告警'
  const PROMPT =
    'The retry budget in the queue worker keeps failing after the deploy; fix the retry logic and check the ledger.'

  it('the pruned candidates and the bounded top k give exactly what judging every card gives', async () => {
    const en = EN.split(' ')
    const zh = ZH.split(' ')
    const rnd = prng(35)
    const distinct = (k: number) => {
      const out: number[] = []
      while (out.length < k) {
        const j = Math.floor(rnd() * en.length)
        if (!out.includes(j)) out.push(j)
      }
      return out
    }
    const words = (js: number[]) => js.map(j => en[j]).join(' ')
    const asked = new Set(PROMPT.toLowerCase().split(/[^a-z]+/))
    const repo = await initRepo()
    const store = path.join(repo.dir, '.cairn')
    let full = 0
    for (let k = 0; k < 400; k++) {
      const triggers = [distinct(3), distinct(3), distinct(3)].map(words)
      if (triggers.some(t => t.split(' ').every(w => asked.has(w)))) full++
      const [c, d] = distinct(2)
      const chinese = rnd() < 0.3
      plantCard(store, `worst-card-${String(k).padStart(3, '0')}`, {
        title: chinese ? `${zh[distinct(1)[0]]}规则${k}` : `Team rule ${k} on ${words(distinct(1))}`,
        language: chinese ? 'zh' : 'en',
        criteria: {use_when: [words(distinct(2)), `${zh[c]}${zh[d]}`], ignore_when: []},
        recall: {policy: rnd() < 0.03 ? 'must' : 'should', triggers, topics: distinct(2).map(j => en[j])},
      })
    }
    // Many cards match one of their triggers fully: the hard case for the bound.
    expect(full).toBeGreaterThan(15)
    const prompts = [
      PROMPT,
      'retry budget queue worker deploy ledger',
      '队列的重试预算在部署之后一直失败，检查账本。',
      'The queue worker retries after the deploy; check the 重试 budget and the ledger.',
      // Short queries: a card may be found by its wording, when it holds every word in some form.
      'fix the retry logic',
      'retry budget',
      '重试预算',
      'retry 队列',
    ]
    const admitted = await expectPrunedIsExhaustive(
      repo.ctx(),
      repo.dir,
      prompts.map((prompt, k) => ({label: `worst ${k}`, prompt})),
    )
    expect(admitted[0]).toBeGreaterThan(15)
    const asks = prompts.flatMap((prompt, k) =>
      [1, 4, 50].map(limit => ({label: `worst ${k} at ${limit}`, prompt, limit})),
    )
    const totals = await expectSame(repo.ctx(), asks)
    // The bound did prune at the small limits.
    expect(totals.bounded).toBeLessThan(totals.exhaustive)
  }, 240_000)
})
