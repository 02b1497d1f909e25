import {describe, expect, it} from 'vitest'
import {MAX_CARD_BYTES} from '../src/domain/card/types.js'
import {changedCardsSince} from '../src/store/cards/queries.js'
import {readBlobs} from '../src/store/git.js'
import {projectStoreAt} from '../src/store/layout.js'
import {initRepo} from './helpers.js'

describe('readBlobs: many blobs from one git cat-file --batch', () => {
  it('splits by byte count: multi-byte text, line breaks, an empty blob; a missing id is left out', async () => {
    const repo = await initRepo()
    const texts = ['变量加引号\n第二行\n', 'a\n\nb\n\n', '', 'x'.repeat(70_000)]
    const ids = texts.map((t, i) => {
      repo.write(`blob-${i}.txt`, t)
      return repo.git('hash-object', '-w', `blob-${i}.txt`).trim()
    })
    const missing = '0123456789abcdef0123456789abcdef01234567'
    const blobs = await readBlobs(repo.ctx(), repo.dir, [...ids, missing])
    expect([...blobs.keys()]).toEqual(ids)
    expect(ids.map(id => blobs.get(id))).toEqual(texts)
    expect(await readBlobs(repo.ctx(), repo.dir, [])).toEqual(new Map())
  })
})

describe('changedCardsSince: the cards a branch changed, as they were at its base', () => {
  it('gives each changed card its text at the base: two cards sharing a blob, Chinese text; a card over the cap is left out', async () => {
    const repo = await initRepo()
    const dir = '.cairn/cards/guideline'
    const same = '---\ntitle: 同一个文本\n---\n规则。\n'
    repo.write(`${dir}/first-card-of-two-here.md`, same)
    repo.write(`${dir}/second-card-of-two-here.md`, same)
    repo.write(`${dir}/oversized-card-for-the-cap.md`, `---\n${'x'.repeat(MAX_CARD_BYTES + 1)}\n`)
    repo.write(`${dir}/untouched-card-stays-out.md`, 'kept\n')
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'base')
    repo.git('checkout', '-qb', 'feature')
    for (const f of ['first-card-of-two-here', 'second-card-of-two-here', 'oversized-card-for-the-cap'])
      repo.write(`${dir}/${f}.md`, `${repo.read(`${dir}/${f}.md`)}changed\n`)
    repo.write(`${dir}/added-on-the-branch.md`, 'new\n')
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'branch')
    const changed = await changedCardsSince(repo.ctx(), projectStoreAt(repo.dir), 'main')
    expect(changed).toEqual([
      {path: `${dir}/first-card-of-two-here.md`, before: same},
      {path: `${dir}/second-card-of-two-here.md`, before: same},
    ])
  })
})
