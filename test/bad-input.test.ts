import fs from 'node:fs'
import path from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {show} from '../src/app/show.js'
import {nextSteps, renderInit} from '../src/cli/render.js'
import {card, cli, initRepo, refusal, type Repo, snapshot, tempRepo} from './helpers.js'

describe('bad input exits 6, names the problem and writes nothing', () => {
  let repo: Repo
  beforeEach(async () => {
    repo = await initRepo()
  })

  const cases: [string, () => {file: string; input?: string | Buffer}, RegExp][] = [
    [
      'invalid YAML',
      () => ({file: repo.write('bad.yaml', 'slug: deepmerge-array-replace-trap\ntype: [pitfall\ntitle: x\n')}),
      /bad\.yaml.*invalid YAML at line 3, column 1/s,
    ],
    [
      'invalid YAML frontmatter in a Markdown card',
      () => ({
        file: repo.write('bad.md', '---\nslug: deepmerge-array-replace-trap\ntitle: "unterminated\n---\n## Rule\n'),
      }),
      /bad\.md.*invalid YAML: the quote opened on line 3, column 8 is not closed\. Fix: end the value on line 3 with a closing ", or remove the opening one\.$/s,
    ],
    [
      'a missing required field',
      () => ({file: '-', input: JSON.stringify({...card(), summary: undefined})}),
      /\(stdin\): summary: is required/,
    ],
    [
      'the slug ../../etc/passwd',
      () => ({file: '-', input: JSON.stringify(card({slug: '../../etc/passwd'}))}),
      /slug: slug "\.\.\/\.\.\/etc\/passwd" breaks rule 1 \(kebab-case/,
    ],
    [
      'a 10 MB card',
      () => ({file: '-', input: JSON.stringify(card({rule: 'x'.repeat(10 * 1024 * 1024)}))}),
      /rule: the card would be \d+ bytes, over the 262144-byte limit/,
    ],
    [
      'invalid UTF-8',
      () => ({
        file: repo.write(
          'bad.json',
          Buffer.concat([
            Buffer.from('{"slug": "deepmerge-array-replace-trap", "title": "'),
            Buffer.from([0xc3, 0x28]),
            Buffer.from('"}'),
          ]),
        ),
      }),
      /bad\.json: \(content\): is not valid UTF-8/,
    ],
    [
      'an unknown field',
      () => ({file: '-', input: JSON.stringify(card({colour: 'blue'}))}),
      /\(stdin\): colour: unknown field\. Fix: remove "colour"/,
    ],
    [
      'a bad type',
      () => ({file: '-', input: JSON.stringify(card({type: 'recipe'}))}),
      /type: "recipe" is not a card type\. Fix: use one of model, decision/,
    ],
    [
      'a slug with filler words',
      () => ({file: '-', input: JSON.stringify(card({slug: 'the-deepmerge-array-thing'}))}),
      /breaks rule 4 \(semantic core only: drop "the", "thing"\)\. Fix: try "deepmerge-array-replaces"\.$/,
    ],
  ]

  for (const [name, make, message] of cases) {
    it(name, async () => {
      const {file, input} = make()
      const before = snapshot(repo)
      const e = await refusal(() => propose(repo.ctx({stdin: input}), {file}))
      expect([e.code, e.exitCode]).toEqual(['validation', 6])
      expect(e.message).toMatch(message)
      expect(snapshot(repo)).toEqual(before)
    })
  }

  it('through the CLI: exit 6, the message on stderr and nothing on stdout; --json puts the error envelope on stdout', async () => {
    const input = JSON.stringify(card({colour: 'blue'}))
    const message = /\(stdin\): colour: unknown field\. Fix: remove "colour"/
    const before = snapshot(repo)
    const r = await cli(['propose', '-'], {cwd: repo.dir, env: repo.env, input})
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/^cairn: .*\n$/s)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
    const j = await cli(['propose', '-', '--json'], {cwd: repo.dir, env: repo.env, input})
    expect(j.code).toBe(6)
    expect(j.stderr).toBe('')
    expect(j.json()).toMatchObject({ok: false, error: {code: 'validation', message: expect.stringMatching(message)}})
    expect(snapshot(repo)).toEqual(before)
  })

  it('a directory given as the proposal file exits 6 and writes nothing', async () => {
    const before = snapshot(repo)
    fs.mkdirSync(path.join(path.dirname(repo.dir), 'cards-dir'))
    const e = await refusal(() => propose(repo.ctx(), {file: path.join(path.dirname(repo.dir), 'cards-dir')}))
    expect(e.exitCode).toBe(6)
    expect(e.message).toMatch(
      /cards-dir: \(file\): is a directory\. Fix: give a JSON, YAML or Markdown file, or "-" for stdin\.$/,
    )
    expect(snapshot(repo)).toEqual(before)
  })

  it('a path-traversal id given to show exits 6', async () => {
    const e = await refusal(() => show(repo.ctx(), {id: '../../etc/passwd'}))
    expect(e.exitCode).toBe(6)
    expect(e.message).toContain('"../../etc/passwd" is not a valid card id')
  })

  it('an array reports every bad card at once with its index', async () => {
    const e = await refusal(() =>
      propose(repo.ctx({stdin: JSON.stringify([card(), card({slug: 'fix', type: 'recipe'})])}), {file: '-'}),
    )
    expect(e.exitCode).toBe(6)
    expect(e.message).toContain('[1].slug: slug "fix" breaks rule 2')
    expect(e.message).toContain('[1].type: "recipe" is not a card type')
    expect(fs.existsSync(path.join(repo.dir, '.cairn/pending'))).toBe(false)
  })

  it('a slug taken by a different proposal exits 5 and writes nothing', async () => {
    await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
    const before = snapshot(repo)
    const r = await cli(['propose', '-'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify(card({source_sessions: ['other-session']})),
    })
    expect(r.code).toBe(5)
    expect(r.stderr).toContain(
      'cairn: Slug "deepmerge-array-replace-trap" is already taken by .cairn/pending/pitfall/deepmerge-array-replace-trap.md, a different proposal. Slugs are unique within a store: rule 5. Fix: add a discriminating word instead of a number.',
    )
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('store and repository refusals', () => {
  it('init outside a git repo exits 3 and suggests git init', async () => {
    const repo = tempRepo()
    const outside = path.join(path.dirname(repo.dir), 'not-a-repo')
    fs.mkdirSync(outside)
    const e = await refusal(() => init(repo.ctx({cwd: outside})))
    expect(e.exitCode).toBe(3)
    expect(e.message).toBe(`${outside} is not inside a git repository. Fix: run "git init" first, then "cairn init".`)
    expect(fs.existsSync(path.join(outside, '.cairn'))).toBe(false)
  })

  it('propose before init exits 3', async () => {
    const repo = tempRepo()
    const e = await refusal(() => propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'}))
    expect(e.exitCode).toBe(3)
    expect(e.message).toBe(
      `${repo.dir} has no cairn store: .cairn/config.yaml is missing. Fix: run "cairn init" first.`,
    )
  })

  it('a repo in the middle of a merge is refused and nothing is written', async () => {
    const repo = tempRepo({'f.txt': 'base\n'})
    await init(repo.ctx())
    repo.git('checkout', '-q', '-b', 'other')
    repo.write('f.txt', 'other\n')
    repo.git('commit', '-qam', 'other')
    repo.git('checkout', '-q', 'main')
    repo.write('f.txt', 'main\n')
    repo.git('commit', '-qam', 'main')
    try {
      repo.git('merge', 'other')
    } catch {}
    const before = snapshot(repo)
    const e = await refusal(() => propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'}))
    expect(e.exitCode).toBe(5)
    expect(e.message).toContain('in the middle of a merge')
    expect(snapshot(repo)).toEqual(before)
  })

  it('init twice changes nothing and says so', async () => {
    const repo = tempRepo()
    expect((await init(repo.ctx())).created).toBe(true)
    const before = snapshot(repo)
    const r = await cli(['init', '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(0)
    expect(r.json()).toEqual({
      ok: true,
      data: {
        store: 'project',
        root: repo.dir,
        created: false,
        files: [],
        commit: null,
        next_steps: nextSteps('project'),
      },
      warnings: [],
    })
    expect(renderInit(await init(repo.ctx()))).toBe(
      `cairn project store already initialised at ${repo.dir}; nothing changed.`,
    )
    expect(snapshot(repo)).toEqual(before)
  })
})
