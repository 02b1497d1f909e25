import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {sha256} from '../src/domain/agents/index.js'
import {initRepo, type Repo, refusal, tempDir} from './helpers.js'
import {shim, skillTemplates, tree, withPath} from './install-helpers.js'

/**
 * The install record is machine-local, but a clone can carry one (`git add -f`): every path in it is checked
 * before uninstall deletes or restores anything by it, and a record naming any other place is refused whole.
 */
const RECORD = '.cairn/.local/install/claude.json'
const SECRET = 'my bank PIN is 4321\n'
const FIX =
  `Fix: delete ${RECORD} (cairn did not write it) and run the command again; ` +
  "without a record, uninstall takes out cairn's hook entries and the skill files that are byte for byte cairn's."

/** A record as install writes it, for this repo, naming these files. */
function plant(repo: Repo, files: Record<string, {written: string; createdDirs?: string[]}>): void {
  const entries = Object.entries(files).map(([rel, f]) => [rel, {original: null, createdDirs: [], ...f}])
  const record = {version: 1, client: 'claude', scope: 'project', root: repo.dir, files: Object.fromEntries(entries)}
  repo.write(RECORD, JSON.stringify(record, null, 2))
}

/** A file outside the repository whose bytes (so whose hash) are known. */
function victim(): string {
  const file = path.join(tempDir('cairn-victim-'), 'known.txt')
  fs.writeFileSync(file, SECRET)
  return file
}

/** Everything a refused run must leave as it was: the repository's files and the victim's. */
const everything = (repo: Repo, file: string) => ({repo: tree(repo.dir), victim: tree(path.dirname(file))})

async function expectRefused(repo: Repo, file: string, field: string, message: string): Promise<void> {
  const before = everything(repo, file)
  const ctx = withPath(repo, shim(0))
  const runs = [
    () => uninstall(ctx, {agent: 'claude', skillsRoot: skillTemplates()}),
    () => uninstall(ctx, {agent: 'claude', dryRun: true, skillsRoot: skillTemplates()}),
    () => install(ctx, {agent: 'claude', skillsRoot: skillTemplates()}),
  ]
  for (const run of runs) {
    const e = await refusal(run)
    expect([e.code, e.exitCode]).toEqual(['validation', 6])
    expect(e.message).toBe(
      `Refused the install record ${RECORD}; nothing was changed:\n  - ${RECORD}: ${field}: ${message}. ${FIX}`,
    )
  }
  expect(everything(repo, file)).toEqual(before)
  expect(fs.readFileSync(file, 'utf8')).toBe(SECRET)
}

describe('paths in the install record', () => {
  it('a planted record that climbs out of the skills folder with ".." is refused, and the file it names stays', async () => {
    const repo = await initRepo()
    const file = victim()
    const rel = `.claude/skills/${path.relative(path.join(repo.dir, '.claude/skills'), file)}`
    expect(rel).toMatch(/^\.claude\/skills\/\.\.\/\.\.\/\.\.\//)
    plant(repo, {[rel]: {written: sha256(SECRET)}})
    await expectRefused(repo, file, `files[${JSON.stringify(rel)}]`, 'has a ".." segment')
  })

  it("refuses an absolute path, a path outside the skills folder, and a created folder off the file's way", async () => {
    const cases: [
      (repo: Repo, file: string) => Record<string, {written: string; createdDirs?: string[]}>,
      string,
      string,
    ][] = [
      [(_, file) => ({[file]: {written: sha256(SECRET)}}), 'files[<victim>]', 'is an absolute path'],
      [() => ({'README.md': {written: sha256('# test\n')}}), 'files["README.md"]', OUTSIDE],
      [() => ({'.claude/skills/known.txt': {written: sha256(SECRET)}}), 'files[".claude/skills/known.txt"]', OUTSIDE],
      [
        () => ({'.claude/skills/x/./known.txt': {written: sha256(SECRET)}}),
        'files[".claude/skills/x/./known.txt"]',
        'is not a plain relative path (an empty or "." segment, a backslash or a control character)',
      ],
      [
        (repo, file) => ({
          '.claude/settings.json': {written: 'x', createdDirs: [path.relative(repo.dir, path.dirname(file))]},
        }),
        'files[".claude/settings.json"].createdDirs[0]',
        'is not a folder on the way to .claude/settings.json',
      ],
      [
        () => ({'.claude/skills/cairn-recall/SKILL.md': {written: 'x', createdDirs: ['.git/refs']}}),
        'files[".claude/skills/cairn-recall/SKILL.md"].createdDirs[0]',
        'is not a folder on the way to .claude/skills/cairn-recall/SKILL.md',
      ],
    ]
    for (const [files, field, message] of cases) {
      const repo = await initRepo()
      const file = victim()
      plant(repo, files(repo, file))
      await expectRefused(repo, file, field.replace('<victim>', JSON.stringify(file)), message)
    }
  })

  it("refuses a path through a symbolic link, at the skill's folder or at the skills folder itself", async () => {
    for (const link of ['.claude/skills/cairn-x', '.claude/skills']) {
      const repo = await initRepo()
      const file = victim()
      const target = link.endsWith('cairn-x') ? path.dirname(file) : path.dirname(path.dirname(file))
      fs.mkdirSync(path.dirname(path.join(repo.dir, link)), {recursive: true})
      fs.symlinkSync(target, path.join(repo.dir, link))
      const rel = link.endsWith('cairn-x')
        ? `${link}/known.txt`
        : `${link}/${path.basename(path.dirname(file))}/known.txt`
      plant(repo, {[rel]: {written: sha256(SECRET)}})
      await expectRefused(repo, file, `files[${JSON.stringify(rel)}]`, `passes through a symbolic link (${link})`)
    }
  })

  it('a planted record beside a committed link at the settings file writes nothing through the link', async () => {
    const repo = await initRepo()
    // A file outside the repository whose bytes are easy to guess, reached through a link the clone committed.
    const outside = path.join(tempDir('cairn-victim-'), 'settings.json')
    fs.writeFileSync(outside, '{}\n')
    fs.mkdirSync(path.join(repo.dir, '.claude'))
    fs.symlinkSync(outside, path.join(repo.dir, '.claude/settings.json'))
    const hook = {hooks: {SessionStart: [{hooks: [{type: 'command', command: 'touch pwned'}]}]}}
    plant(repo, {'.claude/settings.json': {written: sha256('{}\n')}})
    const record = JSON.parse(repo.read(RECORD))
    record.files['.claude/settings.json'].original = Buffer.from(JSON.stringify(hook)).toString('base64')
    repo.write(RECORD, JSON.stringify(record, null, 2))
    const u = await uninstall(withPath(repo, shim(0)), {agent: 'claude', skillsRoot: skillTemplates()})
    expect(u.data.files.map(f => `${f.action} ${f.file}`)).toEqual(['unchanged .claude/settings.json'])
    expect(fs.readFileSync(outside, 'utf8')).toBe('{}\n')
  })

  it('a link on the way to the record refuses uninstall before it changes anything', async () => {
    const repo = await initRepo()
    const ctx = withPath(repo, shim(0))
    await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    const elsewhere = path.join(tempDir('cairn-records-'), 'install')
    fs.renameSync(path.join(repo.dir, '.cairn/.local/install'), elsewhere)
    fs.symlinkSync(elsewhere, path.join(repo.dir, '.cairn/.local/install'))
    const before = tree(repo.dir)
    const e = await refusal(() => uninstall(ctx, {agent: 'claude', skillsRoot: skillTemplates()}))
    expect([e.code, e.exitCode]).toEqual(['validation', 6])
    expect(e.message).toContain('.cairn/.local/install')
    expect(tree(repo.dir)).toEqual(before)
  })

  it('install records no skill file through a linked skills folder, so the next uninstall is not refused', async () => {
    const repo = await initRepo()
    const ctx = withPath(repo, shim(0))
    const skillsRoot = skillTemplates()
    // A skills folder shared between clients, by a link the team committed.
    fs.mkdirSync(path.join(repo.dir, '.agents/skills'), {recursive: true})
    fs.mkdirSync(path.join(repo.dir, '.claude'))
    fs.symlinkSync('../.agents/skills', path.join(repo.dir, '.claude/skills'))
    await install(ctx, {agent: 'claude', skillsRoot})
    expect(tree(path.join(repo.dir, '.agents/skills'))).toEqual([
      'cairn-archive/SKILL.md',
      'cairn-archive/references/types.md',
      'cairn-recall/SKILL.md',
    ])
    expect(Object.keys(JSON.parse(repo.read(RECORD)).files)).toEqual(['.claude/settings.json'])
    const u = await uninstall(ctx, {agent: 'claude', skillsRoot})
    expect(u.data.files.map(f => `${f.action} ${f.file}`)).toEqual([
      'deleted .claude/settings.json',
      'deleted .claude/skills/cairn-archive/SKILL.md',
      'deleted .claude/skills/cairn-archive/references/types.md',
      'deleted .claude/skills/cairn-recall/SKILL.md',
    ])
  })
})

const OUTSIDE =
  "is not Claude Code's settings file, its MCP config, or a file in a skill's folder under .claude/skills/"
