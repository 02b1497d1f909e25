import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {exportCursorRules} from '../src/app/export-cursor-rules.js'
import {init} from '../src/app/init.js'
import {expandBraces, isCairnRule} from '../src/domain/export/cursor-rules.js'
import {cli, refusal, snapshot, templateRepo} from './helpers.js'
import {plant} from './export-helpers.js'

const SOURCES = 'narrow-card-for-sources'
const DOCS = 'narrow-card-for-docs'

const rule = (id: string, description: string, globs: string) =>
  [
    '---',
    `description: ${description}`,
    `globs: ${globs}`,
    'alwaysApply: false',
    '---',
    `<!-- cairn:managed card=${id}: written by \`cairn export cursor-rules\`, which rewrites or removes it. -->`,
    `# Title ${id}`,
    '',
    `Rule of ${id}.`,
    '',
    `The whole card: \`cairn show ${id}\`.`,
    '',
  ].join('\n')

const SOURCES_RULE = rule(SOURCES, '"When editing sources: keep #imports sorted."', 'src/**/*.ts, src/**/*.tsx, lib/**')
const DOCS_RULE = rule(DOCS, `Summary of ${DOCS}.`, '*.md')

/** Two active narrow cards, and narrow cards that must get no rule: pending, deprecated; a broad one; a personal one. */
const planted = templateRepo(async repo => {
  await init(repo.ctx())
  await init(repo.ctx(), {personal: true})
  const summary = 'When editing sources: keep #imports sorted.'
  plant(repo, SOURCES, {summary, scope: {paths: ['src/**/*.{ts,tsx}', 'lib/**']}})
  plant(repo, DOCS, {scope: {paths: ['*.md']}})
  plant(repo, 'narrow-card-pending-review', {status: 'pending', scope: {paths: ['src/**']}})
  plant(repo, 'narrow-card-deprecated-old', {status: 'deprecated', scope: {paths: ['src/**']}})
  plant(repo, 'broad-card-everywhere', {})
  plant(repo, 'personal-card-never-exported', {scope: {level: 'global'}}, {personal: true})
  repo.write('.cursor/rules/team-style.mdc', '---\ndescription: ours\nalwaysApply: true\n---\nBe brief.\n')
  repo.write('.cursor/rules/cairn-handwritten.mdc', '---\ndescription: also ours\n---\nNot cairn.\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'planted')
})

const rulesDir = (dir: string) => {
  const at = path.join(dir, '.cursor/rules')
  return Object.fromEntries(
    fs
      .readdirSync(at)
      .sort()
      .map(f => [f, fs.readFileSync(path.join(at, f), 'utf8')]),
  )
}

const USER_RULES = {
  'cairn-handwritten.mdc': '---\ndescription: also ours\n---\nNot cairn.\n',
  'team-style.mdc': '---\ndescription: ours\nalwaysApply: true\n---\nBe brief.\n',
}

describe('export cursor-rules', () => {
  it("writes one rule per active narrow card of the project store, beside the user's rules, and commits nothing", async () => {
    const repo = await planted()
    const head = repo.git('rev-parse', 'HEAD')
    const r = await exportCursorRules(repo.ctx())
    expect(r).toEqual({
      dir: '.cursor/rules',
      rules: [
        {id: DOCS, file: `.cursor/rules/cairn-${DOCS}.mdc`, action: 'created'},
        {id: SOURCES, file: `.cursor/rules/cairn-${SOURCES}.mdc`, action: 'created'},
      ],
      removed: [],
      written: true,
    })
    expect(rulesDir(repo.dir)).toEqual({
      ...USER_RULES,
      [`cairn-${DOCS}.mdc`]: DOCS_RULE,
      [`cairn-${SOURCES}.mdc`]: SOURCES_RULE,
    })
    expect(repo.git('rev-parse', 'HEAD')).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe(
      `?? .cursor/rules/cairn-${DOCS}.mdc\n?? .cursor/rules/cairn-${SOURCES}.mdc\n`,
    )
  })

  it('is idempotent: a second run changes nothing', async () => {
    const repo = await planted()
    await exportCursorRules(repo.ctx())
    const before = snapshot(repo)
    const r = await exportCursorRules(repo.ctx())
    expect(r.rules.map(x => x.action)).toEqual(['unchanged', 'unchanged'])
    expect([r.removed, r.written]).toEqual([[], false])
    expect(snapshot(repo)).toEqual(before)
  })

  it("updates a changed card's rule and removes the rules of cards no longer active and narrow", async () => {
    const repo = await planted()
    await exportCursorRules(repo.ctx())
    plant(repo, DOCS, {status: 'deprecated', scope: {paths: ['*.md']}})
    plant(repo, SOURCES, {summary: 'A new summary.', scope: {paths: ['lib/**']}})
    const r = await exportCursorRules(repo.ctx())
    expect([r.rules, r.removed]).toEqual([
      [{id: SOURCES, file: `.cursor/rules/cairn-${SOURCES}.mdc`, action: 'updated'}],
      [`.cursor/rules/cairn-${DOCS}.mdc`],
    ])
    expect(rulesDir(repo.dir)).toEqual({
      ...USER_RULES,
      [`cairn-${SOURCES}.mdc`]: rule(SOURCES, 'A new summary.', 'lib/**'),
    })
  })

  it('--dry-run reports the plan and writes nothing', async () => {
    const repo = await planted()
    await exportCursorRules(repo.ctx())
    plant(repo, DOCS, {status: 'deprecated', scope: {paths: ['*.md']}})
    const before = snapshot(repo)
    const r = await exportCursorRules(repo.ctx(), {dryRun: true})
    expect([r.rules.map(x => x.action), r.removed, r.written]).toEqual([
      ['unchanged'],
      [`.cursor/rules/cairn-${DOCS}.mdc`],
      false,
    ])
    expect(snapshot(repo)).toEqual(before)
  })

  it('refuses to overwrite a rule file of the same name that cairn did not write, writing nothing', async () => {
    const repo = await planted()
    repo.write(`.cursor/rules/cairn-${SOURCES}.mdc`, 'my own rule\n')
    const before = snapshot(repo)
    const e = await refusal(() => exportCursorRules(repo.ctx()))
    expect([e.code, e.message]).toEqual([
      'validation',
      'The export would overwrite rules cairn did not write; nothing was written:\n' +
        `  - .cursor/rules/cairn-${SOURCES}.mdc: (file): exists and was not written by cairn. Fix: rename your rule ` +
        'file (cairn owns the cairn-<card id>.mdc names it writes), then run the export again.',
    ])
    expect(snapshot(repo)).toEqual(before)
  })

  it('prints the envelope with --json', async () => {
    const repo = await planted()
    const r = await cli(['export', 'cursor-rules', '--json'], {cwd: repo.dir, env: repo.env})
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.json().data.rules.map((x: {id: string}) => x.id)).toEqual([DOCS, SOURCES])
    expect(repo.read(`.cursor/rules/cairn-${SOURCES}.mdc`)).toBe(SOURCES_RULE)
  })
})

describe('cursor rule rendering', () => {
  it('expands brace alternatives, since Cursor splits globs on commas', () => {
    expect(expandBraces('src/**/*.{ts,tsx}')).toEqual(['src/**/*.ts', 'src/**/*.tsx'])
    expect(expandBraces('{a,b}/x.{c,d}')).toEqual(['a/x.c', 'a/x.d', 'b/x.c', 'b/x.d'])
    expect(expandBraces('src/{app}/**')).toEqual(['src/{app}/**'])
  })

  it('knows its own files by the mark after the frontmatter', () => {
    expect(isCairnRule(SOURCES_RULE)).toBe(true)
    expect(isCairnRule(SOURCES_RULE.replaceAll('\n', '\r\n'))).toBe(true)
    expect(isCairnRule('---\ndescription: x\n---\nsee <!-- cairn:managed card=x -->\n')).toBe(false)
  })
})
