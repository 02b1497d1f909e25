import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {exportAgentsMd} from '../src/app/export-agents-md.js'
import {init} from '../src/app/init.js'
import {cli, initRepo, refusal, type Repo, snapshot, templateRepo} from './helpers.js'
import {plant} from './export-helpers.js'

const block = (cards: string[], tail = '') =>
  [
    '<!-- cairn:begin -->',
    "<!-- Managed by cairn: the project's core cards. Edits inside this block are overwritten; regenerate with `cairn export agents-md --file AGENTS.md`. -->",
    '## Project memory (cairn core cards)',
    '',
    ...cards.flatMap(id => [`### Title ${id} (${id})`, `Rule of ${id}.`, '']),
    ...(tail ? [tail, ''] : []),
    '<!-- cairn:end -->',
  ].join('\n')

const BOTH = block(['core-card-alpha-exported', 'core-card-bravo-exported'])

/** Two active core cards, plus every core card that must stay out: pending, deprecated, recall tier, personal. */
const planted = templateRepo(async repo => {
  await init(repo.ctx())
  await init(repo.ctx(), {personal: true})
  plant(repo, 'core-card-bravo-exported', {load: 'core'})
  plant(repo, 'core-card-alpha-exported', {load: 'core'})
  plant(repo, 'core-card-pending-review', {load: 'core', status: 'pending'})
  plant(repo, 'core-card-deprecated-old', {load: 'core', status: 'deprecated'})
  plant(repo, 'recall-card-not-core', {load: 'recall'})
  plant(repo, 'personal-core-card-private', {load: 'core', scope: {level: 'global'}}, {personal: true})
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'planted')
})

describe('export agents-md', () => {
  it('creates AGENTS.md with the active project core cards in id order, and commits nothing', async () => {
    const repo = await planted()
    const head = repo.git('rev-parse', 'HEAD')
    const r = await exportAgentsMd(repo.ctx())
    expect(repo.read('AGENTS.md')).toBe(`${BOTH}\n`)
    expect(r).toEqual({
      file: 'AGENTS.md',
      action: 'created',
      written: true,
      cards: ['core-card-alpha-exported', 'core-card-bravo-exported'],
      omitted: [],
      chars: 192,
      budget: 8000,
      block: BOTH,
    })
    expect(repo.git('rev-parse', 'HEAD')).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe('?? AGENTS.md\n')
  })

  it('running it twice gives the same file, and the second run writes nothing', async () => {
    const repo = await planted()
    repo.write('AGENTS.md', '# Agents\n\nBuild with make.\n')
    await exportAgentsMd(repo.ctx())
    const first = fs.readFileSync(path.join(repo.dir, 'AGENTS.md'))
    const mtime = fs.statSync(path.join(repo.dir, 'AGENTS.md')).mtimeMs
    const again = await exportAgentsMd(repo.ctx())
    expect(fs.readFileSync(path.join(repo.dir, 'AGENTS.md')).equals(first)).toBe(true)
    expect([again.action, again.written]).toEqual(['unchanged', false])
    expect(fs.statSync(path.join(repo.dir, 'AGENTS.md')).mtimeMs).toBe(mtime)
  })

  it('replaces the block in place, keeping every byte outside the markers (BOM, CRLF, no final newline)', async () => {
    const repo = await planted()
    const before = '\uFEFF# Agents\r\n\r\nKeep  this\ttext.\r\n'
    const after = '\r\n## After\r\ntrailing text without newline'
    repo.write('CLAUDE.md', `${before}<!-- cairn:begin -->\r\nstale content\r\n<!-- cairn:end -->${after}`)
    const r = await exportAgentsMd(repo.ctx(), {file: 'CLAUDE.md'})
    const crlf = BOTH.replace('--file AGENTS.md', '--file CLAUDE.md').split('\n').join('\r\n')
    expect(repo.read('CLAUDE.md')).toBe(`${before}${crlf}${after}`)
    expect(r.action).toBe('updated')
  })

  it('appends the block after one blank line when the file has none', async () => {
    const repo = await planted()
    for (const [text, gap] of [
      ['# Gemini\nno newline', '\n\n'],
      ['# Gemini\n', '\n'],
      ['# Gemini\n\n', ''],
      ['', ''],
    ]) {
      repo.write('GEMINI.md', text)
      expect((await exportAgentsMd(repo.ctx(), {file: 'GEMINI.md'})).action).toBe('appended')
      expect(repo.read('GEMINI.md')).toBe(`${text}${gap}${BOTH.replace('AGENTS.md', 'GEMINI.md')}\n`)
    }
  })

  it('writes .github/copilot-instructions.md, creating .github/', async () => {
    const repo = await planted()
    await exportAgentsMd(repo.ctx(), {file: '.github/copilot-instructions.md'})
    expect(repo.read('.github/copilot-instructions.md')).toBe(
      `${BOTH.replace('AGENTS.md', '.github/copilot-instructions.md')}\n`,
    )
  })

  it('stops at the first card over core_budget and says how many were left out', async () => {
    const repo = await planted()
    plant(repo, 'core-card-charlie-exported', {load: 'core'})
    const config = repo.read('.cairn/config.yaml')
    const [alpha, bravo, charlie] = ['alpha', 'bravo', 'charlie'].map(n => `core-card-${n}-exported`)
    // Each card's core text is 96 characters: 192 fits two exactly, 191 only one.
    for (const [budget, cards, omitted] of [
      [192, [alpha, bravo], [charlie]],
      [191, [alpha], [bravo, charlie]],
    ] as const) {
      repo.write('.cairn/config.yaml', config.replace('core_budget: 8000', `core_budget: ${budget}`))
      const r = await exportAgentsMd(repo.ctx())
      expect([r.cards, r.omitted, r.chars]).toEqual([cards, omitted, 96 * cards.length])
      const tail = `${omitted.length} more core card(s) left out: over the core budget of ${budget} characters. \`cairn maintain\` plans which to demote.`
      expect(repo.read('AGENTS.md')).toBe(`${block([...cards], tail)}\n`)
    }
  })

  it('says so when there are no core cards', async () => {
    const repo = await initRepo()
    await exportAgentsMd(repo.ctx())
    expect(repo.read('AGENTS.md')).toBe(`${block([], 'No active core cards (`load: core`) yet.')}\n`)
  })

  it('leaves out a card file it cannot read, and warns naming it', async () => {
    const repo = await planted()
    repo.write('.cairn/cards/guideline/broken-core-card-file.md', '---\nnot: [a card\n---\n')
    const ctx = repo.ctx()
    expect((await exportAgentsMd(ctx)).cards).toEqual(['core-card-alpha-exported', 'core-card-bravo-exported'])
    expect(ctx.warnings).toEqual([
      'left out 1 card file(s) that could not be read (.cairn/cards/guideline/broken-core-card-file.md); "cairn lint" explains',
    ])
  })

  it('defuses a card line that looks like a marker, so the next run still finds one block', async () => {
    const repo = await initRepo()
    plant(repo, 'core-card-with-markers', {load: 'core'}, {rule: '<!-- cairn:end -->\n<!-- cairn:begin -->'})
    await exportAgentsMd(repo.ctx())
    expect(repo.read('AGENTS.md')).toContain('\n&lt;!-- cairn:end -->\n&lt;!-- cairn:begin -->\n')
    expect((await exportAgentsMd(repo.ctx())).action).toBe('unchanged')
  })

  it('writes through a CLAUDE.md link to AGENTS.md and keeps the link', async () => {
    const repo = await planted()
    repo.write('AGENTS.md', '# Shared\n')
    fs.symlinkSync('AGENTS.md', path.join(repo.dir, 'CLAUDE.md'))
    await exportAgentsMd(repo.ctx(), {file: 'CLAUDE.md'})
    expect(fs.lstatSync(path.join(repo.dir, 'CLAUDE.md')).isSymbolicLink()).toBe(true)
    expect(repo.read('AGENTS.md')).toBe(`# Shared\n\n${BOTH.replace('--file AGENTS.md', '--file CLAUDE.md')}\n`)
  })

  it('refuses a link that leaves the repository, writing nothing', async () => {
    const repo = await planted()
    const outside = path.join(path.dirname(repo.dir), 'outside.md')
    fs.writeFileSync(outside, 'theirs\n')
    fs.symlinkSync(outside, path.join(repo.dir, 'AGENTS.md'))
    const e = await refusal(() => exportAgentsMd(repo.ctx()))
    expect([e.code, e.message]).toEqual([
      'validation',
      `Invalid input:\n  - AGENTS.md: (file): is a link to ${outside}, outside the repository. Fix: replace the link with a regular file, or export to another file.`,
    ])
    expect(fs.readFileSync(outside, 'utf8')).toBe('theirs\n')
  })

  it.each([
    ['a begin without an end', 'x\n<!-- cairn:begin -->\nold\n', 'line 2 begins a cairn block that never ends'],
    [
      'two begins',
      '<!-- cairn:begin -->\n<!-- cairn:begin -->\n<!-- cairn:end -->\n',
      'lines 1, 2 each begin a cairn block',
    ],
    ['two ends', '<!-- cairn:begin -->\n<!-- cairn:end -->\n<!-- cairn:end -->\n', 'lines 2, 3 each end a cairn block'],
    ['an end without a begin', 'x\n<!-- cairn:end -->\n', 'line 2 ends a cairn block that never began'],
    [
      'an end before the begin',
      '<!-- cairn:end -->\n<!-- cairn:begin -->\n',
      'line 1 ends the cairn block before line 2 begins it',
    ],
  ])('refuses %s, naming the file, and writes nothing', async (_, text, problem) => {
    const repo = await planted()
    repo.write('AGENTS.md', text)
    const before = snapshot(repo)
    const e = await refusal(() => exportAgentsMd(repo.ctx()))
    expect(e.code).toBe('validation')
    expect(e.message).toBe(
      "AGENTS.md: the cairn block's markers are broken; nothing was written:\n" +
        `  - AGENTS.md: (cairn block): ${problem}. Fix: keep exactly one <!-- cairn:begin --> line followed by one ` +
        '<!-- cairn:end --> line (or delete both and everything between), then run the export again.',
    )
    expect(snapshot(repo)).toEqual(before)
  })

  it('--dry-run returns the block and writes nothing', async () => {
    const repo = await planted()
    const before = snapshot(repo)
    const r = await exportAgentsMd(repo.ctx(), {dryRun: true})
    expect([r.action, r.written, r.block]).toEqual(['created', false, BOTH])
    expect(snapshot(repo)).toEqual(before)
  })

  it('refuses a file that is not an agent instruction file (usage)', async () => {
    const repo = await planted()
    const e = await refusal(() => exportAgentsMd(repo.ctx(), {file: 'README.md'}))
    expect([e.code, e.message]).toEqual([
      'usage',
      '--file README.md is not a file cairn exports to. Fix: pass one of AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md.',
    ])
  })
})

describe('cairn export agents-md (CLI)', () => {
  const run = (repo: Repo, ...args: string[]) => cli(['export', 'agents-md', ...args], {cwd: repo.dir, env: repo.env})

  it('prints the envelope with --json and writes the file', async () => {
    const repo = await planted()
    const r = await run(repo, '--json')
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.json()).toEqual({
      ok: true,
      warnings: [],
      data: expect.objectContaining({file: 'AGENTS.md', action: 'created'}),
    })
    expect(repo.read('AGENTS.md')).toBe(`${BOTH}\n`)
  })

  it('refuses another --file with exit 2, naming the allowed files', async () => {
    const repo = await planted()
    const r = await run(repo, '--file', 'README.md')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'cairn: --file "README.md" is not one of AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md. Fix: use one of them.',
    )
    expect(repo.read('README.md')).toBe('# test\n')
  })
})
