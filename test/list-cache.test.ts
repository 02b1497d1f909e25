import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {list} from '../src/app/list.js'
import {propose} from '../src/app/propose.js'
import {card, cli, initRepo, type Repo} from './helpers.js'

/**
 * The summaries list keeps beside the card cache (.cairn/.cache/list.json) only save reading it: whatever happens
 * to a card file, to the card cache or to the summaries, list shows what the files say now.
 */
const SUMMARIES = '.cairn/.cache/list.json'
const CARDS = '.cairn/.cache/cards.json'
const FILE = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const OTHER = '.cairn/pending/pitfall/second-card-summaries.md'
/** Where an entry holds the card's title: after the stamp, id, type, status and load. */
const TITLE = 5
const titles = async (repo: Repo) => (await list(repo.ctx())).cards.map(c => `${c.id}: ${c.title}`)
const summaries = (repo: Repo) => JSON.parse(repo.read(SUMMARIES)) as {entries: Record<string, unknown[]>}

async function proposeAll(repo: Repo, cards: Record<string, unknown>[]): Promise<void> {
  const file = path.join(path.dirname(repo.dir), 'cards.json')
  fs.writeFileSync(file, JSON.stringify(cards))
  await propose(repo.ctx(), {file})
}

async function withCard(): Promise<Repo> {
  const repo = await initRepo()
  await proposeAll(repo, [card()])
  return repo
}

/** Poisons the summary of FILE: a list that shows the poison was answered from the summaries. */
function poison(repo: Repo): void {
  const data = summaries(repo)
  data.entries[FILE][TITLE] = 'from the summaries'
  repo.write(SUMMARIES, JSON.stringify(data))
}

describe('the summaries list keeps', () => {
  it('are written by the first list and answer the next, until a hand edit of the card', async () => {
    const repo = await withCard()
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    const data = summaries(repo)
    expect(Object.keys(data.entries)).toEqual([FILE])
    expect(data.entries[FILE]).toEqual([
      expect.stringMatching(/^\d+:\d+:\d+:\d+:\d+$/),
      'deepmerge-array-replace-trap',
      'pitfall',
      'pending',
      'recall',
      'deepMerge replaces arrays',
      'general',
      null,
    ])
    poison(repo)
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: from the summaries'])
    // Same size, same second: the ctime still moves, so the file is read again, and the summaries written again.
    repo.write(FILE, repo.read(FILE).replace('title: deepMerge replaces arrays', 'title: deepMerge REPLACES arrays'))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge REPLACES arrays'])
    expect(summaries(repo).entries[FILE][TITLE]).toBe('deepMerge REPLACES arrays')
    expect(repo.git('status', '--porcelain')).toBe(` M ${FILE}\n`)
  })

  it('show a card added and drop one removed', async () => {
    const repo = await withCard()
    await titles(repo)
    await proposeAll(repo, [card({slug: 'second-card-summaries', title: 'A second card'})])
    expect(await titles(repo)).toEqual([
      'deepmerge-array-replace-trap: deepMerge replaces arrays',
      'second-card-summaries: A second card',
    ])
    expect(Object.keys(summaries(repo).entries).sort()).toEqual([FILE, OTHER])
    fs.rmSync(path.join(repo.dir, OTHER))
    poison(repo)
    // The removed file is no longer listed; the poisoned summary of the other one is still served.
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: from the summaries'])
    fs.rmSync(path.join(repo.dir, FILE))
    expect(await list(repo.ctx())).toEqual({cards: [], unreadable: []})
  })

  it('are ignored and written again when damaged, of another cairn version, or made beside another card cache', async () => {
    const repo = await withCard()
    await titles(repo)
    const good = repo.read(SUMMARIES)
    repo.write(SUMMARIES, '{"schema": "cairn/list-cache@1", "entr')
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    expect(repo.read(SUMMARIES)).toBe(good)
    poison(repo)
    repo.write(SUMMARIES, JSON.stringify({...JSON.parse(repo.read(SUMMARIES)), cairn: '0.0.1'}))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    // A card cache written again (here by hand, poisoned) is what the summaries are made from again.
    poison(repo)
    const cards = JSON.parse(repo.read(CARDS))
    cards.entries[FILE][1].title = 'from the card cache'
    repo.write(CARDS, JSON.stringify(cards))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: from the card cache'])
    expect(summaries(repo).entries[FILE][TITLE]).toBe('from the card cache')
    // An entry of the wrong shape is a miss.
    const data = summaries(repo)
    data.entries[FILE] = [data.entries[FILE][0], 'no other field']
    repo.write(SUMMARIES, JSON.stringify(data))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: from the card cache'])
    expect(summaries(repo).entries[FILE]).toHaveLength(8)
  })

  it('are neither read nor written through a link', async () => {
    const repo = await withCard()
    await titles(repo)
    poison(repo)
    const target = path.join(path.dirname(repo.dir), 'linked-summaries.json')
    fs.renameSync(path.join(repo.dir, SUMMARIES), target)
    fs.symlinkSync(target, path.join(repo.dir, SUMMARIES))
    const before = fs.readFileSync(target, 'utf8')
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    expect(fs.readFileSync(target, 'utf8')).toBe(before)
    expect(fs.lstatSync(path.join(repo.dir, SUMMARIES)).isSymbolicLink()).toBe(true)
  })

  it('keep a file that is no card as unreadable until it changes', async () => {
    const repo = await withCard()
    repo.write(FILE, repo.read(FILE).replace('type: pitfall', 'type: bogus'))
    expect(await list(repo.ctx())).toEqual({cards: [], unreadable: [FILE]})
    expect(summaries(repo).entries[FILE]).toHaveLength(1)
    expect(await list(repo.ctx())).toEqual({cards: [], unreadable: [FILE]})
    repo.git('checkout', '--', FILE)
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
  })

  it('give the CLI the same list, text and --json, as a read without them', async () => {
    const repo = await withCard()
    await proposeAll(repo, [card({slug: 'second-card-summaries', title: 'A second card', type: 'decision'})])
    const run = async (args: string[]) => (await cli(args, {cwd: repo.dir, env: repo.env})).stdout
    const cold = [await run(['list']), await run(['list', '--json']), await run(['list', '--type', 'decision'])]
    expect(fs.existsSync(path.join(repo.dir, SUMMARIES))).toBe(true)
    const warm = [await run(['list']), await run(['list', '--json']), await run(['list', '--type', 'decision'])]
    expect(warm).toEqual(cold)
    expect(cold[2]).toContain('second-card-summaries')
    expect(cold[2]).not.toContain('deepmerge-array-replace-trap')
  })
})
