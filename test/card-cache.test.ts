import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {list} from '../src/app/list.js'
import {propose} from '../src/app/propose.js'
import {BIN, card, cli, initRepo, ROOT, type Repo} from './helpers.js'

/**
 * The card cache (.cairn/.cache/cards.json) only saves parsing: whatever happens to a card file or
 * to the cache, a read gives what the files say now.
 */
const CACHE = '.cairn/.cache/cards.json'
const FILE = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const titles = async (repo: Repo) => (await list(repo.ctx())).cards.map(c => `${c.id}: ${c.title}`)

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

describe('the card cache', () => {
  it('is written by the first read, serves the next, and an edit of the same size is read again', async () => {
    const repo = await withCard()
    expect(fs.existsSync(path.join(repo.dir, CACHE))).toBe(false)
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    const cached = JSON.parse(repo.read(CACHE))
    expect(Object.keys(cached.entries)).toEqual([FILE])
    expect(cached.entries[FILE][1].title).toBe('deepMerge replaces arrays')
    // A hit returns the cached card: poison it, and the read shows the poison while the file is unchanged.
    cached.entries[FILE][1].title = 'from the cache'
    repo.write(CACHE, JSON.stringify(cached))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: from the cache'])
    // Same size, same second: the ctime still moves, so the file is parsed again.
    repo.write(FILE, repo.read(FILE).replace('title: deepMerge replaces arrays', 'title: deepMerge REPLACES arrays'))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge REPLACES arrays'])
    expect(JSON.parse(repo.read(CACHE)).entries[FILE][1].title).toBe('deepMerge REPLACES arrays')
    // The cache is ignored by git: only the edit shows.
    expect(repo.git('status', '--porcelain')).toBe(` M ${FILE}\n`)
  })

  it('never serves a card whose file became invalid, a link, or went away', async () => {
    const repo = await withCard()
    await titles(repo)
    repo.write(FILE, repo.read(FILE).replace('type: pitfall', 'type: bogus'))
    expect(await list(repo.ctx())).toEqual({cards: [], unreadable: [FILE]})
    // An invalid card is not cached: it is reported on every read.
    expect(JSON.parse(repo.read(CACHE)).entries).toEqual({})
    expect((await list(repo.ctx())).unreadable).toEqual([FILE])
    repo.git('checkout', '--', FILE)
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    const target = path.join(repo.dir, 'elsewhere.md')
    fs.renameSync(path.join(repo.dir, FILE), target)
    fs.symlinkSync(target, path.join(repo.dir, FILE))
    expect(await list(repo.ctx())).toEqual({cards: [], unreadable: [FILE]})
    fs.rmSync(path.join(repo.dir, FILE))
    expect(await list(repo.ctx())).toEqual({cards: [], unreadable: []})
    expect(JSON.parse(repo.read(CACHE)).entries).toEqual({})
  })

  it('ignores a damaged cache, one of another cairn version, and a linked .cache/', async () => {
    const repo = await withCard()
    repo.write(CACHE, '{"schema": "cairn/card-cache@1", "entr')
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    const good = JSON.parse(repo.read(CACHE))
    repo.write(
      CACHE,
      JSON.stringify({
        ...good,
        cairn: '0.0.1',
        entries: {[FILE]: [good.entries[FILE][0], {...good.entries[FILE][1], title: 'stale'}]},
      }),
    )
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    // A .cache/ that links out of the store is neither read nor written.
    const outside = path.join(path.dirname(repo.dir), 'outside-cache')
    fs.mkdirSync(outside)
    fs.rmSync(path.join(repo.dir, '.cairn/.cache'), {recursive: true})
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/.cache'))
    expect(await titles(repo)).toEqual(['deepmerge-array-replace-trap: deepMerge replaces arrays'])
    expect(fs.readdirSync(outside)).toEqual([])
  })

  it('keeps archived cards a plain list did not ask for, while their files are unchanged', async () => {
    const repo = await withCard()
    expect((await list(repo.ctx(), {status: 'archived'})).cards).toEqual([])
    await titles(repo)
    const before = repo.read(CACHE)
    await titles(repo)
    // Nothing changed: the second read writes nothing.
    expect(repo.read(CACHE)).toBe(before)
  })

  it('stays whole when reads run at once and when one is killed at any moment', async () => {
    const repo = await withCard()
    const many = Array.from({length: 60}, (_, i) =>
      card({slug: `cache-killed-read-${String(i).padStart(3, '0')}`, source_sessions: [`s-${i}`]}),
    )
    await proposeAll(repo, many)
    const expected = (await cli(['list', '--json'], {cwd: repo.dir, env: repo.env})).json()
    fs.rmSync(path.join(repo.dir, CACHE))
    const runs = await Promise.all(
      Array.from({length: 3}, () => cli(['list', '--json'], {cwd: repo.dir, env: repo.env})),
    )
    for (const r of runs) expect(r.json()).toEqual(expected)
    expect(Object.keys(JSON.parse(repo.read(CACHE)).entries)).toHaveLength(61)
    for (const delay of [60, 180, 300]) {
      fs.rmSync(path.join(repo.dir, CACHE), {force: true})
      const child = spawn(process.execPath, [BIN, 'list'], {cwd: repo.dir, env: repo.env, stdio: 'ignore'})
      await new Promise(resolve => setTimeout(resolve, delay))
      child.kill('SIGKILL')
      await new Promise(resolve => child.on('close', resolve))
      if (fs.existsSync(path.join(repo.dir, CACHE)))
        expect(Object.keys(JSON.parse(repo.read(CACHE)).entries)).toHaveLength(61)
      expect((await cli(['list', '--json'], {cwd: repo.dir, env: repo.env})).json()).toEqual(expected)
    }
  })

  it('a list the cache answers loads neither the card parser (YAML, zod), the config schema nor the transaction module', async () => {
    const repo = await withCard()
    await titles(repo)
    const loaded = (args: string[]) => {
      const trace = path.join(path.dirname(repo.dir), `trace-${args[0]}.txt`)
      const r = spawnSync(
        process.execPath,
        ['--import', path.join(ROOT, 'test/fixtures/trace-imports.mjs'), BIN, ...args],
        {
          cwd: repo.dir,
          env: {...repo.env, CAIRN_TRACE_IMPORTS: trace},
          encoding: 'utf8',
        },
      )
      expect(r.status).toBe(0)
      const urls = fs.readFileSync(trace, 'utf8')
      // The packages' own files never: cairn loads each bundled into one file (scripts/bundle-vendor.mjs).
      return [
        '/node_modules/yaml/',
        '/node_modules/zod/',
        '/dist/domain/vendor/yaml.js',
        '/dist/domain/vendor/zod.js',
        '/dist/store/cards/transaction.js',
      ].filter(m => urls.includes(m))
    }
    expect(loaded(['list'])).toEqual([])
    // The trace sees them where they are needed: a write loads all three.
    expect(loaded(['review', 'approve', 'deepmerge-array-replace-trap'])).toEqual([
      '/dist/domain/vendor/yaml.js',
      '/dist/domain/vendor/zod.js',
      '/dist/store/cards/transaction.js',
    ])
  })
})
