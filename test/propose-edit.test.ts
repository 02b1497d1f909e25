import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {proposalLanguage} from '../src/app/propose.js'
import {cardTemplate} from '../src/cli/card-template.js'
import {editorCommand} from '../src/cli/editor.js'
import {hasEdits} from '../src/cli/propose-edit.js'
import {cliInProcess} from './cli-in-process.js'
import {cli, initRepo, ROOT, snapshot, tempDir, tempRepo, type Repo} from './helpers.js'

const SCRIPT = path.join(ROOT, 'test', 'fixtures', 'edit-card.mjs')
/** An editor command with arguments, as `code --wait` has: cairn runs it through the shell, the file last. */
const editor = (...args: string[]) => [process.execPath, SCRIPT, ...args].map(a => `'${a}'`).join(' ')

/** The environment of one edit: the editor, a temp dir of its own to watch, and where the editor copies what it saw. */
function editEnv(repo: Repo, vars: Record<string, string>) {
  const tmp = tempDir('cairn-edit-tmp-')
  const seen = path.join(tempDir(), 'seen.md')
  return {env: {...repo.env, VISUAL: '', EDITOR: '', TMPDIR: tmp, EDIT_SEEN: seen, ...vars}, tmp, seen}
}
const drafts = (tmp: string) =>
  fs.readdirSync(tmp).flatMap(d => fs.readdirSync(path.join(tmp, d)).map(f => path.join(tmp, d, f)))

describe('propose --edit', () => {
  it('opens $VISUAL (before $EDITOR) on the template and proposes what was saved, in one commit', async () => {
    const repo = await initRepo()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {env, tmp, seen} = editEnv(repo, {VISUAL: editor('fill'), EDITOR: 'false'})
    const r = await cli(['propose', '--edit'], {cwd: repo.dir, env})
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(fs.readFileSync(seen, 'utf8')).toBe(cardTemplate('en', 'team'))
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    expect(r.stdout).toContain(`created  deepmerge-array-replace-trap  pitfall  project  ${file}`)
    const saved = repo.read(file)
    expect(saved).toContain('title: deepMerge replaces arrays\n')
    expect(saved).toContain('## Rule\n\n```text\nAppend the arrays, then dedupe them.\n```')
    expect(repo.git('log', '--format=%s', `${head}..HEAD`)).toBe('cairn(propose): deepmerge-array-replace-trap\n')
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(fs.readdirSync(tmp)).toEqual([])
  })

  it('an empty file, the untouched template or only its comments abort with exit 2 and write nothing', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    for (const mode of ['empty', 'untouched', 'comments']) {
      const {env, tmp} = editEnv(repo, {EDITOR: editor(mode)})
      const r = await cli(['propose', '--edit'], {cwd: repo.dir, env})
      expect([r.code, r.stdout, r.stderr], mode).toEqual([
        2,
        '',
        'cairn: Propose aborted: the card was left empty or unchanged; nothing was written. Fix: write the card, save it, then quit the editor.\n',
      ])
      expect(fs.readdirSync(tmp), mode).toEqual([])
    }
    expect(snapshot(repo)).toEqual(before)
  })

  it('an editor that fails aborts with exit 2; text it saved is kept and named', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    const failing = editEnv(repo, {EDITOR: editor('fail')})
    const r = await cli(['propose', '--edit', '--json'], {cwd: repo.dir, env: failing.env})
    const [kept] = drafts(failing.tmp)
    expect([r.code, r.json().error]).toEqual([
      2,
      {
        code: 'usage',
        message: `Propose aborted: the editor "${editor('fail')}" exited with code 3; nothing was written. Your text is kept in ${kept}. Fix: propose it with "cairn propose ${kept}".`,
        data: {editor: editor('fail'), kept},
      },
    ])
    expect(fs.readFileSync(kept, 'utf8')).toContain('title: deepMerge replaces arrays\n')
    // No editor at all: the shell cannot find it, and there is nothing to keep.
    const missing = editEnv(repo, {EDITOR: 'no-such-editor-here'})
    const gone = await cli(['propose', '--edit'], {cwd: repo.dir, env: missing.env})
    expect([gone.code, gone.stderr.split('\n').at(-2)]).toEqual([
      2,
      'cairn: Propose aborted: the editor "no-such-editor-here" could not be run, exit 127; set VISUAL or EDITOR to an installed editor; nothing was written. Fix: run "cairn propose --edit" again.',
    ])
    expect(fs.readdirSync(missing.tmp)).toEqual([])
    expect(snapshot(repo)).toEqual(before)
  })

  it('invalid content: the validation error names the field, nothing is committed, and the kept file can be proposed once fixed', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    const {env, tmp} = editEnv(repo, {EDITOR: editor('no-summary')})
    const r = await cli(['propose', '--edit'], {cwd: repo.dir, env})
    const [kept] = drafts(tmp)
    expect([r.code, r.stdout]).toEqual([6, ''])
    expect(r.stderr).toBe(
      [
        `cairn: Invalid proposal in ${kept}:`,
        `  - ${kept}: summary: must be text (found an empty value). Fix: give text.`,
        `Your card is kept in ${kept}: fix it, then run "cairn propose ${kept}".`,
        '',
      ].join('\n'),
    )
    expect(snapshot(repo)).toEqual(before)
    fs.writeFileSync(
      kept,
      fs
        .readFileSync(kept, 'utf8')
        .replace(/^summary:$/m, 'summary: When merging hook config, deepMerge replaces arrays; append instead.'),
    )
    const again = await cli(['propose', kept], {cwd: repo.dir, env})
    expect([again.code, again.stdout.split('\n')[1]]).toEqual([
      0,
      'created  deepmerge-array-replace-trap  pitfall  project  .cairn/pending/pitfall/deepmerge-array-replace-trap.md',
    ])
  })

  it("the template is in the store's knowledge_language, and the card follows it", async () => {
    const repo = await initRepo()
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('knowledge_language: en', 'knowledge_language: zh-CN'),
    )
    repo.git('commit', '-qam', 'zh-CN')
    expect(await proposalLanguage(repo.ctx(), 'team')).toBe('zh-CN')
    const {env, seen} = editEnv(repo, {EDITOR: editor('fill', 'zh')})
    const r = await cli(['propose', '--edit'], {cwd: repo.dir, env})
    expect(r.code).toBe(0)
    const template = fs.readFileSync(seen, 'utf8')
    expect(template).toBe(cardTemplate('zh-CN', 'team'))
    expect(template).toContain('\n## 这张卡解决什么问题\n\n## 完整规则\n')
    const card = repo.read('.cairn/pending/pitfall/merge-config-array-trap.md')
    expect(card).toContain('language: zh\n')
    expect(card).toContain('## 完整规则\n\n```text\n先追加数组，再去重。\n```')
  })

  it('is refused with a FILE or card flags, and outside a store before any editor opens', async () => {
    const repo = await initRepo()
    const {env, seen} = editEnv(repo, {EDITOR: editor('fill')})
    const withFile = await cliInProcess(['propose', '--edit', 'cards.json'], {cwd: repo.dir, env})
    const withFlags = await cliInProcess(['propose', '--edit', '--type', 'pitfall'], {cwd: repo.dir, env})
    expect([withFile.code, withFlags.code]).toEqual([2, 2])
    expect(withFile.stderr).toContain(
      'cairn: --edit writes the card in your editor: give no FILE and no card flags with it',
    )
    // Off a terminal (the test's pipes, an agent's shell) vi is never the fallback: it would hang or garble the output.
    const piped = await cli(['propose', '--edit'], {cwd: repo.dir, env: {...env, EDITOR: '', TERM: 'xterm-256color'}})
    expect([piped.code, piped.stderr]).toEqual([
      2,
      'cairn: No editor for --edit: this is not a terminal and neither VISUAL nor EDITOR is set. Fix: set one, or give the card as a FILE.\n',
    ])
    const bare = tempRepo()
    const outside = await cli(['propose', '--edit'], {
      cwd: bare.dir,
      env: {...env, HOME: bare.home, CAIRN_HOME: path.join(bare.home, '.cairn')},
    })
    expect(outside.code).toBe(3)
    expect(fs.existsSync(seen)).toBe(false)
  })
})

describe('the edit helpers', () => {
  it('picks the editor as git does: VISUAL, then EDITOR, then vi, but vi only on a terminal that is not dumb', () => {
    expect([
      editorCommand({VISUAL: 'code --wait', EDITOR: 'nano', TERM: 'dumb'}, false),
      editorCommand({VISUAL: ' ', EDITOR: 'nano'}, false),
      editorCommand({TERM: 'xterm-256color'}, true),
      editorCommand({TERM: 'xterm-256color'}, false),
      editorCommand({TERM: 'dumb'}, true),
      editorCommand({}, true),
    ]).toEqual(['code --wait', 'nano', 'vi', undefined, undefined, undefined])
  })

  it('counts as an edit only a line the template does not have that is not a comment', () => {
    const t = cardTemplate('en', 'team')
    expect(hasEdits(t, t)).toBe(false)
    expect(hasEdits(t.replace(/^# .*\n/gm, ''), t)).toBe(false)
    expect(hasEdits(`${t}# a note of mine\n\n`, t)).toBe(false)
    expect(hasEdits(`\uFEFF${t.replace(/\n/g, '\r\n')}`, t)).toBe(false)
    expect(hasEdits(t.replace('layer: team', 'layer: personal'), t)).toBe(true)
    expect(hasEdits(`${t}The rule.\n`, t)).toBe(true)
  })
})
