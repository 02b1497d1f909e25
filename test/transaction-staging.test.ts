import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {card, initRepo, refusal, snapshot} from './helpers.js'

/**
 * The transaction stages its paths as literal paths (git update-index), as `git add --all -- <paths>` would
 * stage them: a new file added, a moved one removed where it was. A new path that git ignores is refused as
 * `git add` refuses it, and nothing is written.
 */
describe('transaction staging', () => {
  it('an approval stages the new card and the removal of the pending one, and commits exactly them', async () => {
    const repo = await initRepo()
    const {cards} = await propose(repo.ctx(), {fields: card()})
    const id = cards[0].id
    // The user's own staged change is never swept into cairn's commit.
    fs.writeFileSync(path.join(repo.dir, 'notes.txt'), 'mine\n')
    repo.git('add', 'notes.txt')
    await approve(repo.ctx(), {ids: [id]})
    expect(repo.git('show', '--name-status', '--no-renames', '--format=', 'HEAD').trim().split('\n')).toEqual([
      `A\t.cairn/cards/pitfall/${id}.md`,
      `D\t.cairn/pending/pitfall/${id}.md`,
    ])
    expect(repo.git('status', '--porcelain')).toBe('A  notes.txt\n')
  })

  it('with nothing else staged, an approval commits exactly its paths; an unstaged edit and a new file stay out', async () => {
    const repo = await initRepo()
    const {cards} = await propose(repo.ctx(), {fields: card()})
    const id = cards[0].id
    fs.appendFileSync(path.join(repo.dir, '.cairn', 'config.yaml'), '# mine\n')
    fs.writeFileSync(path.join(repo.dir, 'notes.txt'), 'mine\n')
    const head = repo.git('rev-parse', 'HEAD').trim()
    await approve(repo.ctx(), {ids: [id]})
    expect(repo.git('rev-parse', 'HEAD~1').trim()).toBe(head)
    expect(repo.git('show', '--name-status', '--no-renames', '--format=', 'HEAD').trim().split('\n')).toEqual([
      `A\t.cairn/cards/pitfall/${id}.md`,
      `D\t.cairn/pending/pitfall/${id}.md`,
    ])
    expect(repo.git('status', '--porcelain')).toBe(' M .cairn/config.yaml\n?? notes.txt\n')
  })

  it('a new card where git ignores it is refused as git add refuses it, and nothing is written', async () => {
    const repo = await initRepo()
    fs.appendFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), '.cairn/pending/\n')
    const before = snapshot(repo)
    const error = await refusal(() => propose(repo.ctx(), {fields: card()}))
    expect(error.code).toBe('git')
    expect(error.message).toMatch(/The following paths are ignored by one of your \.gitignore files:\n\.cairn\/pending/)
    expect(snapshot(repo)).toEqual(before)
  })

  it('a card tracked where git now ignores it is approved: git add stages a tracked path whatever ignores it', async () => {
    const repo = await initRepo()
    const {cards} = await propose(repo.ctx(), {fields: card()})
    fs.appendFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), '.cairn/pending/\n')
    await approve(repo.ctx(), {ids: [cards[0].id]})
    expect(repo.git('ls-files', '.cairn/pending').trim()).toBe('')
    expect(repo.git('ls-files', '.cairn/cards').trim()).toBe(`.cairn/cards/pitfall/${cards[0].id}.md`)
    expect(repo.git('status', '--porcelain')).toBe('')
  })
})
