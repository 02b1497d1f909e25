import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {card, cli, initRepo} from './helpers.js'

const SLUGS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'].map(
  w => `concurrent-writer-${w}-case`,
)

describe('concurrent writers', () => {
  it('eight propose processes at once give 8 pending cards and 8 commits, with no error', async () => {
    const repo = await initRepo()
    const before = Number(repo.git('rev-list', '--count', 'HEAD').trim())
    const results = await Promise.all(
      SLUGS.map(slug =>
        cli(['propose', '-', '--json'], {cwd: repo.dir, env: repo.env, input: JSON.stringify(card({slug}))}),
      ),
    )
    for (const r of results) {
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.json().data.cards[0].outcome).toBe('created')
    }
    expect(fs.readdirSync(path.join(repo.dir, '.cairn/pending/pitfall')).sort()).toEqual(
      SLUGS.map(s => `${s}.md`).sort(),
    )
    expect(Number(repo.git('rev-list', '--count', 'HEAD').trim())).toBe(before + 8)
    const subjects = repo.git('log', `-8`, '--format=%s').trim().split('\n').sort()
    expect(subjects).toEqual(SLUGS.map(s => `cairn(propose): ${s}`).sort())
    for (let i = 0; i < 8; i++)
      expect(repo.git('show', '--name-only', '--format=', `HEAD~${i}`).trim().split('\n')).toHaveLength(1)
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(fs.existsSync(path.join(repo.dir, '.git/cairn.lock'))).toBe(false)
  })

  it('a lock left by a dead process is stale and removed', async () => {
    const repo = await initRepo()
    fs.writeFileSync(
      path.join(repo.dir, '.git/cairn.lock'),
      JSON.stringify({pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname()}),
    )
    const r = await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
    expect(r.cards.map(c => c.outcome)).toEqual(['created'])
    expect(fs.existsSync(path.join(repo.dir, '.git/cairn.lock'))).toBe(false)
  })
})
