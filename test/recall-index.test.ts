import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {promptRecall} from '../src/app/prompt-recall.js'
import {recall} from '../src/app/recall.js'
import {coreText} from '../src/domain/core.js'
import {readCardFile} from '../src/store/cards/card-file.js'
import {type RecallIndex, useIndex} from '../src/recall/open.js'
import {BLOCK} from '../src/recall/format.js'
import {parseHead} from '../src/recall/read.js'
import type {Repo} from './helpers.js'
import {contentOf, flipped, indexFileOf, plantCard, sessionRepo, storesOf} from './recall-index-helpers.js'

const PROMPT = 'Before commit, run git status; also npm pack and test the tarball install'
const ids = (r: {cards: {id: string}[]}) => r.cards.map(c => c.id)
const session = (ix: RecallIndex) => ({core: ix.coreCards(), catalog: ix.catalog(), paths: ix.pathCards()})
const sessionOf = (repo: Repo) => useIndex(storesOf(repo.ctx()), session)
const answer = async (repo: Repo) => {
  const r = await promptRecall(repo.ctx(), {prompt: PROMPT})
  return {rebuilt: r.rebuiltIndex, cards: ids(r), text: r.text}
}

describe('recall index: session regions', () => {
  it('holds the visible core cards, the recall-tier catalog and the narrow cards, project first, then by id', async () => {
    const repo = await sessionRepo()
    const {core, catalog, paths} = await sessionOf(repo)
    const home = repo.env.CAIRN_HOME as string
    const projectCard = (type: string, id: string) => `.cairn/cards/${type}/${id}.md`
    expect(core.map(c => `${c.store}:${c.id}:${c.title}`)).toEqual([
      'project:core-commit-message-style:Commit message style',
      'project:core-shared-with-personal:Title core-shared-with-personal',
      'project:narrow-core-card:Title narrow-core-card',
      'personal:personal-core-habit:Title personal-core-habit',
    ])
    expect(core[0]).toEqual({
      id: 'core-commit-message-style',
      title: 'Commit message style',
      store: 'project',
      path: projectCard('guideline', 'core-commit-message-style'),
      scope: {level: 'project', project_key: null},
      policy: 'must',
      risk: 'low',
      text: '### Commit message style (core-commit-message-style)\nWrite the subject in the imperative.\n',
    })
    // Exactly coreText(card) of the card file, the summary standing in for a missing rule section.
    for (const c of core) {
      const file = c.store === 'project' ? path.join(repo.dir, c.path) : path.join(home, c.path)
      expect(c.text).toBe(coreText(readCardFile(file, file)))
    }
    expect(core[2].text).toBe('### Title narrow-core-card (narrow-core-card)\nSummary of narrow-core-card.\n')
    expect(core[3].path).toBe('cards/guideline/personal-core-habit.md')
    expect(catalog).toEqual([
      {
        id: 'browser-validation',
        title: '前端改动必须做真实浏览器验收',
        store: 'project',
        path: projectCard('guideline', 'browser-validation'),
        scope: {level: 'global', project_key: null},
        policy: 'must',
        category: '测试验收',
        when: '浏览器验证',
        useWhen: true,
      },
      {
        id: 'config-merge-narrow',
        title: 'Merge config arrays',
        store: 'project',
        path: projectCard('guideline', 'config-merge-narrow'),
        scope: {level: 'global', project_key: null},
        policy: 'must',
        category: 'general',
        when: 'Summary of config-merge-narrow.',
      },
      expect.objectContaining({id: 'git-commit-safety', store: 'project'}),
      expect.objectContaining({id: 'release-tarball-smoke-test', store: 'project'}),
      expect.objectContaining({
        id: 'personal-alias-note',
        store: 'personal',
        path: 'cards/guideline/personal-alias-note.md',
        category: 'general',
        when: 'Summary of personal-alias-note.',
      }),
    ])
    expect(paths).toEqual([
      {
        id: 'config-merge-narrow',
        title: 'Merge config arrays',
        store: 'project',
        path: projectCard('guideline', 'config-merge-narrow'),
        scope: {level: 'global', project_key: null},
        summary: 'Summary of config-merge-narrow.',
        policy: 'must',
        risk: 'high',
        module_path: 'src',
        paths: ['src/config/**'],
        rule: 'Append arrays, never replace them.',
        cited: [],
      },
      {
        id: 'narrow-core-card',
        title: 'Title narrow-core-card',
        store: 'project',
        path: projectCard('pitfall', 'narrow-core-card'),
        scope: {level: 'project', project_key: 'github.com/acme/app'},
        summary: 'Summary of narrow-core-card.',
        policy: 'may',
        risk: 'medium',
        module_path: null,
        paths: ['docs/**', '!docs/tmp/**'],
        rule: 'Summary of narrow-core-card.',
        cited: [],
      },
    ])
    // The deprecated card, the deferred pending card and the personal copy of a project id are nowhere.
    const all = [...core, ...catalog, ...paths].map(c => c.id)
    for (const hidden of ['old-deprecated-core', 'deferred-core-card-for-later']) expect(all).not.toContain(hidden)
    expect(fs.readdirSync(path.join(repo.dir, '.cairn/pending/guideline'))).toEqual(['deferred-core-card-for-later.md'])
    expect(core.filter(c => c.id === 'core-shared-with-personal').map(c => c.store)).toEqual(['project'])
  })

  it('an incremental update carries unchanged cards over to the same regions a cold build gives', async () => {
    const repo = await sessionRepo()
    await sessionOf(repo)
    // The project copy goes: the personal copy of its id becomes the visible one.
    fs.rmSync(path.join(repo.dir, '.cairn/cards/guideline/core-shared-with-personal.md'))
    plantCard(
      path.join(repo.dir, '.cairn'),
      'config-merge-narrow',
      {title: 'Merge config arrays, edited', scope: {level: 'global', paths: ['src/config/**', 'config/*.json']}},
      'Append, then dedupe.',
    )
    const updated = await sessionOf(repo)
    expect(updated.core.map(c => `${c.store}:${c.id}:${c.title}`)).toContain(
      'personal:core-shared-with-personal:PERSONAL COPY',
    )
    expect(updated.paths[0]).toMatchObject({
      title: 'Merge config arrays, edited',
      rule: 'Append, then dedupe.',
      paths: ['src/config/**', 'config/*.json'],
    })
    fs.rmSync(indexFileOf(repo))
    expect(await sessionOf(repo)).toEqual(updated)
  })
})

describe('recall index: corruption', () => {
  it('a file truncated at 10%, 50% or 99%, or with one byte flipped, answers as a fresh index and is rebuilt', async () => {
    const repo = await sessionRepo()
    const file = indexFileOf(repo)
    const fresh = await answer(repo)
    expect(fresh).toMatchObject({rebuilt: true, cards: ['release-tarball-smoke-test', 'git-commit-safety']})
    const bytes = fs.readFileSync(file)
    const freshSession = await sessionOf(repo)
    // The stamps region is read by every open, so a flip there is always found at once.
    const damaged: [string, Buffer, boolean][] = [
      ...[0.1, 0.5, 0.99].map(
        f =>
          [`truncated at ${f * 100}%`, bytes.subarray(0, Math.floor(bytes.length * f)), true] as [
            string,
            Buffer,
            boolean,
          ],
      ),
      ['one byte flipped in the stamps', flipped(bytes, 'stamps'), true],
      // Opens cleanly: cairn recall meets it in a candidate's record, the prompt when it admits that card.
      ['one byte flipped in a cached record', flipped(bytes, bytes.indexOf('"id":"git-commit-safety"') + 8), false],
    ]
    for (const [what, bad, atOpen] of damaged) {
      fs.writeFileSync(file, bad)
      // cairn recall reads the cache too: with a bad block it ranks from the card files alone.
      expect(ids(await recall(repo.ctx(), {prompt: PROMPT})), what).toEqual(fresh.cards)
      fs.writeFileSync(file, bad)
      expect(await answer(repo), what).toEqual(fresh)
      expect(contentOf(fs.readFileSync(file)), what).toEqual(contentOf(bytes))
      fs.writeFileSync(file, bad)
      expect(await sessionOf(repo), what).toEqual(freshSession)
      // The session regions never touch a record's block, so only damage found at open rebuilds here.
      if (atOpen) expect(contentOf(fs.readFileSync(file)), what).toEqual(contentOf(bytes))
      else expect(fs.readFileSync(file).equals(bad), what).toBe(true)
    }
    // A flip mid-file is found when a read touches its block; whatever it hits, the answers stay right.
    fs.writeFileSync(file, flipped(bytes, bytes.length >> 1))
    expect(ids(await recall(repo.ctx(), {prompt: PROMPT}))).toEqual(fresh.cards)
    expect({...(await answer(repo)), rebuilt: true}).toEqual(fresh)
    expect(await sessionOf(repo)).toEqual(freshSession)
  })

  it('checks only the blocks a read touches: damage in the catalog spares the prompt, and the catalog read rebuilds', async () => {
    const repo = await sessionRepo()
    // Enough recall-tier cards that the catalog spans blocks of its own.
    for (let i = 0; i < 160; i++)
      plantCard(path.join(repo.dir, '.cairn'), `filler-card-number-${i}`, {
        summary: `Filler ${i}: ${'a long summary sentence '.repeat(12)}`,
      })
    const file = indexFileOf(repo)
    const fresh = await answer(repo)
    const bytes = fs.readFileSync(file)
    const freshCatalog = (await sessionOf(repo)).catalog
    expect(parseHead(bytes)!.header.regions.catalog[1]).toBeGreaterThan(3 * BLOCK)
    const bad = flipped(bytes, 'catalog')
    fs.writeFileSync(file, bad)
    expect(await answer(repo)).toEqual({...fresh, rebuilt: false})
    expect(fs.readFileSync(file).equals(bad)).toBe(true)
    expect(await useIndex(storesOf(repo.ctx()), ix => ix.catalog())).toEqual(freshCatalog)
    expect(contentOf(fs.readFileSync(file))).toEqual(contentOf(bytes))
  })
})
