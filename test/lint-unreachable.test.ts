import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {readCardFile} from '../src/store/cards/card-file.js'
import {card, cli, tempRepo} from './helpers.js'
import {plantCard} from './recall-index-helpers.js'

// Its positive hint ui_surface gates it: a prompt must name a UI (page, browser, css...), and its own
// title and summary never do, whatever the matcher admits on words.
const GATED = card({
  slug: 'storybook-snapshot-check',
  type: 'process',
  title: 'Check the storybook snapshots before a release',
  summary: 'Compare the storybook snapshots with the last release before tagging.',
  engine_hints: {positive: ['ui_surface']},
})
const UNREACHABLE = {
  file: '.cairn/cards/process/storybook-snapshot-check.md',
  field: 'recall.triggers',
  rule: 'unreachable',
  severity: 'warning',
  message: "its own title and summary, as a prompt, do not recall it, so a user's words are unlikely to",
  fix: 'give it the words a user would type when it applies: cairn review modify storybook-snapshot-check --set triggers=<phrase>,<phrase> (or add criteria.use_when phrases)',
}

async function library() {
  const repo = tempRepo()
  await init(repo.ctx())
  const project = path.join(repo.dir, '.cairn')
  // Its title holds its trigger: reachable.
  plantCard(project, 'flaky-login-test-alone', {
    title: 'Run the flaky login test alone',
    recall: {triggers: ['flaky login test']},
  })
  // A personal card scoped to another project, unreachable in the same way: out of this project, so not linted for it.
  const home = repo.env.CAIRN_HOME as string
  fs.mkdirSync(home, {recursive: true})
  fs.writeFileSync(path.join(home, 'config.yaml'), 'schema: cairn/config@1\n')
  repo.git('-C', home, 'init', '-q')
  plantCard(home, 'other-project-ui-note', {
    engine_hints: {positive: ['ui_surface']},
    scope: {level: 'project', project_key: 'github.com/other/app'},
  })
  return repo
}

describe('lint: unreachable cards', () => {
  it("warns when an approved card's own title and summary do not recall it, and names the file and the fix", async () => {
    const repo = await library()
    await propose(repo.ctx(), {fields: GATED})
    // A pending card is not recalled by anything yet: nothing to say until it is approved.
    expect((await lint(repo.ctx())).problems).toEqual([])
    await approve(repo.ctx(), {ids: ['storybook-snapshot-check']})
    expect(await lint(repo.ctx())).toEqual({
      language: 'en',
      checked: 3,
      errors: 0,
      warnings: 1,
      problems: [UNREACHABLE],
    })
    // PATHS narrow it like every other check.
    expect((await lint(repo.ctx(), {paths: ['.cairn/cards/guideline']})).problems).toEqual([])
    expect((await lint(repo.ctx(), {paths: ['.cairn/cards/process']})).problems).toEqual([UNREACHABLE])
  })

  it('is a warning: lint still exits 0 and reports it in its JSON', async () => {
    const repo = await library()
    await propose(repo.ctx(), {fields: GATED})
    await approve(repo.ctx(), {ids: ['storybook-snapshot-check']})
    const r = await cli(['lint', '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).data.problems).toEqual([UNREACHABLE])
  })
})

const WORDS = (
  'cache index query schema migration config deploy release build test fixture browser page layout button ' +
  'token session login retry timeout queue worker lint format backup snapshot branch merge conflict review'
).split(' ')

/** 40 cards over 33 words: their words overlap, so each card's own prompt meets many others. */
function overlapping(repo: Awaited<ReturnType<typeof library>>): string[] {
  let x = 7
  const rnd = () => (x = (x * 48271) % 2147483647) / 2147483647
  const pick = (n: number) => Array.from({length: n}, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ')
  const ids: string[] = []
  for (let i = 0; i < 40; i++) {
    const id = `overlap-card-${String(i).padStart(2, '0')}`
    const triggers = Array.from({length: Math.floor(rnd() * 3)}, () => pick(2))
    const hints = rnd() < 0.2 ? {positive: ['external_model_review']} : {}
    plantCard(path.join(repo.dir, '.cairn'), id, {
      title: pick(4),
      summary: `${pick(10)}.`,
      recall: {triggers},
      criteria: {use_when: rnd() < 0.3 ? [pick(3)] : [], ignore_when: []},
      engine_hints: hints,
    })
    ids.push(id)
  }
  return ids
}

describe('lint: unreachable cards, against the whole library', () => {
  it('matching each card alone gives the answer a whole-library match of its title and summary gives', async () => {
    const repo = await library()
    const ids = overlapping(repo)
    const warned = (await lint(repo.ctx())).problems
      .filter(p => p.rule === 'unreachable')
      .map(p => path.basename(p.file, '.md'))
    const missed: string[] = []
    for (const id of ['flaky-login-test-alone', ...ids]) {
      const file = path.join(repo.dir, '.cairn/cards/guideline', `${id}.md`)
      const {title, summary} = readCardFile(file, file)
      const r = await promptRecall(repo.ctx(), {prompt: `${title}\n${summary}`, limit: 1000})
      if (!r.cards.some(c => c.id === id)) missed.push(id)
    }
    expect(warned).toEqual(missed)
    // Both kinds are there, so the comparison says something.
    expect(missed.length).toBeGreaterThan(3)
    expect(missed.length).toBeLessThan(35)
  })
})
