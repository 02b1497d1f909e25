import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {parseCard} from '../src/domain/card/format.js'
import {card, initRepo, refusal, snapshot, tempRepo} from './helpers.js'

describe('propose (acceptance)', () => {
  it("commits only cairn paths and leaves the user's staged and unstaged changes alone", async () => {
    const repo = tempRepo({'src/app.ts': 'export const a = 1\n', 'src/other.ts': 'export const b = 1\n'})
    await init(repo.ctx())
    repo.write('src/app.ts', 'export const a = 2 // staged\n')
    repo.git('add', 'src/app.ts')
    repo.write('src/other.ts', 'export const b = 2 // unstaged\n')
    const before = repo.git('rev-parse', 'HEAD').trim()
    const r = await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
    expect(r.cards).toEqual([
      {
        id: 'deepmerge-array-replace-trap',
        type: 'pitfall',
        store: 'project',
        path: '.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
        outcome: 'created',
        key: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ])
    expect(repo.git('rev-parse', 'HEAD~1').trim()).toBe(before)
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual([
      '.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
    ])
    expect(repo.git('diff', '--cached', '--name-only').trim()).toBe('src/app.ts')
    expect(repo.git('diff', '--name-only').trim()).toBe('src/other.ts')
    expect(repo.read('src/other.ts')).toBe('export const b = 2 // unstaged\n')
    expect(repo.git('show', ':src/app.ts')).toBe('export const a = 2 // staged\n')
    const message = repo.git('log', '-1', '--format=%B')
    expect(message).toBe(
      'cairn(propose): deepmerge-array-replace-trap\n\nCairn-Op: propose\nCairn-Card: deepmerge-array-replace-trap\nCairn-Actor: tester\nCairn-Format: 1\n\n',
    )
  })

  it('merges evidence when the same (session, type, slug) is proposed twice', async () => {
    const repo = await initRepo()
    const first = await propose(repo.ctx(), {
      fields: undefined,
      file: repo.write(
        'one.json',
        JSON.stringify(card({recent_paths: ['src/a.ts'], session_context: 'Session goal: wire hooks.'})),
      ),
    })
    const second = await propose(repo.ctx(), {
      file: repo.write(
        'two.json',
        JSON.stringify(
          card({
            type: 'pitfalls',
            source_sessions: ['session-1', 'session-2'],
            recent_paths: ['src/b.ts'],
            session_context: 'Turning point: arrays vanished.',
          }),
        ),
      ),
    })
    expect(first.cards[0].outcome).toBe('created')
    expect(second.cards[0].outcome).toBe('merged')
    expect(second.cards[0].key).toBe(first.cards[0].key)
    const files = fs.readdirSync(path.join(repo.dir, '.cairn/pending/pitfall'))
    expect(files).toEqual(['deepmerge-array-replace-trap.md'])
    const merged = parseCard(repo.read('.cairn/pending/pitfall/deepmerge-array-replace-trap.md'), 'x')
    expect(merged.provenance.source_sessions).toEqual(['session-1', 'session-2'])
    expect(merged.provenance.recent_paths).toEqual(['src/a.ts', 'src/b.ts'])
    expect(merged.provenance.session_context).toBe('Session goal: wire hooks.\n\nTurning point: arrays vanished.')
    expect(merged.body).toContain('- Source sessions: session-1, session-2')
    const third = await propose(repo.ctx(), {
      file: repo.write('two.json', JSON.stringify(card({source_sessions: ['session-1', 'session-2']}))),
    })
    expect(third.cards[0].outcome).toBe('unchanged')
    expect(third.commit).toBeNull()
    expect(repo.git('log', '--format=%s').trim().split('\n')).toEqual([
      'cairn(propose): deepmerge-array-replace-trap',
      'cairn(propose): deepmerge-array-replace-trap',
      'cairn(init): initialise the project store',
      'initial',
    ])
  })

  for (const [name, hook] of [
    ['a failing pre-commit hook', 'echo "hook says no" >&2\nexit 1'],
    ['a silent failing pre-commit hook', 'exit 1'],
  ]) {
    it(`leaves no trace when the commit fails (commit.verify: true and ${name})`, async () => {
      const repo = tempRepo({'src/app.ts': 'a\n'})
      await init(repo.ctx())
      const config = repo.read('.cairn/config.yaml').replace('  verify: false', '  verify: true')
      repo.write('.cairn/config.yaml', config)
      repo.git('commit', '-q', '-am', 'verify hooks')
      repo.write('.git/hooks/pre-commit', `#!/bin/sh\n${hook}\n`)
      fs.chmodSync(path.join(repo.dir, '.git/hooks/pre-commit'), 0o755)
      repo.write('src/app.ts', 'b\n')
      repo.git('add', 'src/app.ts')
      repo.write('src/app.ts', 'c\n')
      const before = snapshot(repo)
      const e = await refusal(() => propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'}))
      expect([e.code, e.exitCode]).toEqual(['git', 7])
      expect(e.message).toContain(hook.includes('echo') ? 'hook says no' : 'git exited with code 1')
      expect(snapshot(repo)).toEqual(before)
    })
  }
})
