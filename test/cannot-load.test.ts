import {describe, expect, it} from 'vitest'
import {recall} from '../src/app/recall.js'
import {cli, type Repo} from './helpers.js'
import {errorLog, feed, hookRepo, settle} from './hook-helpers.js'

/** A card that cannot be loaded is named, with its field and fix, by recall and the hook error log; it never vanishes silently. */
const CARD = '.cairn/cards/guideline/flaky-login-test.md'
const PROMPT = 'the flaky login test failed again'
const LOAD = `${CARD} cannot be loaded, so recall and the hooks leave it out: load: "sometimes" is not one of core, recall. Fix: set load to core or recall.`
const payload = (repo: Repo) => ({
  session_id: 's',
  transcript_path: null,
  cwd: repo.dir,
  hook_event_name: 'UserPromptSubmit',
  prompt: PROMPT,
})
const ids = (r: {cards: {id: string}[]}) => r.cards.map(c => c.id)

async function brokenRepo(...edits: [string, string][]): Promise<Repo> {
  const repo = await hookRepo()
  let text = repo.read(CARD)
  for (const [from, to] of edits) {
    expect(text).toContain(from)
    text = text.replace(from, to)
  }
  repo.write(CARD, text)
  return repo
}

describe('a card that cannot be loaded', () => {
  it('recall warns with the file, the field and the fix, each time, and leaves the card out', async () => {
    const repo = await brokenRepo(['load: recall', 'load: sometimes'])
    for (let i = 0; i < 2; i++) {
      const ctx = repo.ctx()
      expect(ids(await recall(ctx, {prompt: PROMPT}))).toEqual([])
      expect(ctx.warnings).toEqual([LOAD])
    }
    const json = await cli(['recall', PROMPT, '--json'], {cwd: repo.dir, env: repo.env})
    expect([json.code, json.stderr]).toEqual([0, ''])
    expect(json.json()).toMatchObject({ok: true, data: {cards: []}, warnings: [LOAD]})
    const text = await cli(['recall', PROMPT], {cwd: repo.dir, env: repo.env})
    expect([text.code, text.stderr]).toEqual([0, `warning: ${LOAD}\n`])
  })

  it('any invalid field is reported the same way; every broken field of the file is named', async () => {
    const repo = await brokenRepo(
      ['title: The login test is flaky under load', 'title: ""'],
      ['protected: false', 'protected: maybe'],
    )
    const ctx = repo.ctx()
    await recall(ctx, {prompt: PROMPT})
    expect(ctx.warnings).toEqual([
      `${CARD} cannot be loaded, so recall and the hooks leave it out: title: must not be empty. Fix: give a value. ` +
        'protected: must be true or false (found text). Fix: give true or false.',
    ])
  })

  it('the hooks stay silent on stdout and exit 0, and log the problem once per version of the file', async () => {
    const repo = await brokenRepo(['load: recall', 'load: sometimes'])
    // The CLI built the index first: the hook must log what it finds there, not only what it parses itself.
    await recall(repo.ctx(), {prompt: PROMPT})
    const spawned = await cli(['hook', 'user-prompt-submit', '--agent', 'claude'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify(payload(repo)),
    })
    expect([spawned.code, spawned.stdout, spawned.stderr]).toEqual([0, '', ''])
    expect(errorLog(repo)).toEqual([expect.stringMatching(/^\d{4}-\S+Z /)])
    expect(errorLog(repo)[0].replace(/^\S+ /, '')).toBe(LOAD)
    // Every prompt opens the index; the log does not grow while the file stays the same.
    expect(await feed(repo, 'claude', 'user-prompt-submit', payload(repo))).toEqual({stdout: ''})
    await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    expect(errorLog(repo)).toHaveLength(1)
    // Broken another way: a new line.
    repo.write(CARD, repo.read(CARD).replace('load: sometimes', 'load: always'))
    expect((await feed(repo, 'claude', 'user-prompt-submit', payload(repo))).stdout).toBe('')
    await settle(repo)
    expect(errorLog(repo).map(l => l.replace(/^\S+ /, ''))).toEqual([LOAD, LOAD.replace('"sometimes"', '"always"')])
    // Fixed: recall finds it again, and nothing more is logged or warned.
    repo.write(CARD, repo.read(CARD).replace('load: always', 'load: recall'))
    const ctx = repo.ctx()
    expect(ids(await recall(ctx, {prompt: PROMPT}))).toEqual(['flaky-login-test'])
    expect(ctx.warnings).toEqual([])
    expect(
      JSON.parse((await feed(repo, 'claude', 'user-prompt-submit', payload(repo))).stdout).hookSpecificOutput
        .additionalContext,
    ).toContain('flaky-login-test')
    expect(errorLog(repo)).toHaveLength(2)
  })
})
