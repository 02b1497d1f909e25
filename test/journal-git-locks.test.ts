import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {TREE_COMMIT_MIN_PATHS} from '../src/store/cards/commit.js'
import {card, cli, initRepo} from './helpers.js'

// Enough cards that an approval moves more paths than TREE_COMMIT_MIN_PATHS: the commit goes through git update-ref.
const N = Math.ceil(TREE_COMMIT_MIN_PATHS / 2) + 10
const SLUGS = Array.from({length: N}, (_, i) => `plumbing-test-case-${String(i).padStart(3, '0')}`)

describe("an interrupted write and git's own locks", () => {
  it('a kill while update-ref moves HEAD: the next write waits for it, and finishes the commit that landed', async () => {
    const repo = await initRepo()
    const file = repo.write('../cards.json', JSON.stringify(SLUGS.map(slug => card({slug}))))
    const ids = (await propose(repo.ctx(), {file})).cards.map(c => c.id)
    // git runs a reference-transaction hook under the ref lock (HEAD.lock); this one takes a moment.
    const hook = path.join(repo.dir, '.git/hooks/reference-transaction')
    fs.writeFileSync(hook, '#!/bin/sh\ncat >/dev/null\n[ "$1" = prepared ] && sleep 3\nexit 0\n')
    fs.chmodSync(hook, 0o755)
    const env = {...repo.env, CAIRN_TEST_CRASH: 'during-commit'}
    const killed = await cli(['review', 'approve', ...ids], {cwd: repo.dir, env})
    expect(killed.code).toBe(-1)
    const next = await cli(['propose', '-'], {cwd: repo.dir, env: repo.env, input: JSON.stringify(card())})
    expect(next.code).toBe(0)
    expect(next.stderr).toMatch(
      /finished an interrupted cairn approve in the project store .*: its commit [0-9a-f]{12} had landed/,
    )
    expect(repo.git('log', '-2', '--format=%s').split('\n').slice(0, 2)).toEqual([
      'cairn(propose): deepmerge-array-replace-trap',
      `cairn(approve): approve ${N} cards`,
    ])
    expect(repo.git('status', '--porcelain')).toBe('')
  }, 120_000)

  it('a write of a few cards works with a GIT_*_PATHSPECS variable set', async () => {
    for (const variable of ['GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_ICASE_PATHSPECS']) {
      const repo = await initRepo()
      const {cards} = await propose(repo.ctx(), {fields: card()})
      await approve(repo.ctx({env: {...repo.env, [variable]: '1'}}), {ids: [cards[0].id]})
      expect(repo.git('log', '-1', '--format=%s').trim()).toBe('cairn(approve): deepmerge-array-replace-trap')
      expect(fs.existsSync(path.join(repo.dir, '.cairn/cards/pitfall/deepmerge-array-replace-trap.md'))).toBe(true)
    }
  })
})
