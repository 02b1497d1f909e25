import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {Parser} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {promptRecall} from '../src/app/prompt-recall.js'
import {recall, splitPaths} from '../src/app/recall.js'
import Recall from '../src/commands/recall.js'
import {explainData} from '../src/cli/recall-data.js'
import {renderRecall} from '../src/cli/render-recall.js'
import {indexPath} from '../src/recall/open.js'
import {projectStoreAt} from '../src/store/layout.js'
import {cliInProcess} from './cli-in-process.js'
import {cli, ROOT} from './helpers.js'
import {recallRepo} from './recall-helpers.js'

const ids = (r: {cards: {id: string}[]}) => r.cards.map(c => c.id)
const NARROW = {
  id: 'narrow-config-merge-card',
  title: 'Merge config arrays',
  summary: 'Append arrays when merging config.',
  recall: {triggers: ['merge config']},
  scope: {level: 'global', paths: ['src/config/**']},
}

describe('cairn recall', () => {
  it('prints the light index of the cards that apply, and nothing when unsure', async () => {
    const repo = await recallRepo()
    const text = renderRecall(
      await recall(repo.ctx(), {prompt: 'Before commit, run git status and keep the staged diff clean'}),
      false,
    )
    expect(text).toContain('cairn: cards that may apply to this task.')
    expect(text).toContain('- Keep unrelated changes out of a commit (git-commit-safety) [must, high risk]')
    expect(text).toContain('Full rule: cairn show git-commit-safety --section rule')
    expect(text).not.toContain('Stage only the files of the task.')
    const none = await cli(['recall', 'write a tomato soup recipe', '--json'], {cwd: repo.dir, env: repo.env})
    expect(none.code).toBe(0)
    expect(none.json()).toMatchObject({
      ok: true,
      data: {query: 'write a tomato soup recipe', text: '', cards: [], total: 3},
    })
  })

  it('--json lists the cards; --explain shows every gate and score for each card considered', async () => {
    const repo = await recallRepo()
    const r = await recall(repo.ctx(), {prompt: 'validate the page in a real browser'})
    expect(ids(r)).toEqual(['browser-validation'])
    const explain = explainData(r)
    const byId = Object.fromEntries(explain.cards.map(c => [c.id, c]))
    expect(byId['browser-validation'].gates.map(g => [g.gate, g.pass])).toEqual([
      ['scope', true],
      ['ignore_when', true],
      ['positive', true],
      ['negative', true],
    ])
    expect(byId['browser-validation'].admission).toMatchObject({threshold: 0.5, near_miss_penalty: 0})
    expect(byId['browser-validation'].admission.matches[0]).toMatchObject({
      field: 'triggers',
      text: 'real browser',
      exact: true,
      score: 1,
    })
    expect(explain.signals.map(s => s.id)).toEqual(['ui_surface'])
    const text = renderRecall(r, true)
    for (const c of explain.cards) expect(text).toContain(`${c.id} [`)
    expect(text).toContain('gate positive     pass  fired ui_surface')
    expect(text).toMatch(/admission \d+\.\d+ = evidence/)
  })

  it('sees uncommitted edits: a card file changed since the index was built is read again', async () => {
    const repo = await recallRepo()
    expect(ids(await recall(repo.ctx(), {prompt: '先做发布冒烟测试'}))).toEqual([])
    const file = path.join(repo.dir, '.cairn/cards/guideline/release-tarball-smoke-test.md')
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace('triggers: [npm pack, tarball install]', 'triggers: [npm pack, tarball install, 发布冒烟测试]'),
    )
    const r = await recall(repo.ctx(), {prompt: '先做发布冒烟测试'})
    expect(ids(r)).toEqual(['release-tarball-smoke-test'])
    expect(r.rebuiltIndex).toBe(true)
    expect(fs.existsSync(indexPath(projectStoreAt(repo.dir)))).toBe(true)
  })

  it('a card with ignore_when 只改文档 is never recalled for a prompt containing 只改文档', async () => {
    const repo = await recallRepo()
    const prompts = [
      '真实浏览器里做浏览器验证，只改文档',
      '只改文档，不过 real browser 浏览器验证 browser validation 都提到了',
      'browser validation on the page (只改文档)',
    ]
    for (const prompt of prompts) {
      expect(ids(await recall(repo.ctx(), {prompt})), prompt).not.toContain('browser-validation')
      expect(ids(await promptRecall(repo.ctx(), {prompt})), prompt).not.toContain('browser-validation')
    }
    expect(ids(await promptRecall(repo.ctx(), {prompt: '真实浏览器里做浏览器验证'}))).toEqual(['browser-validation'])
  })

  it('--path and --limit reach the matcher; recall.max_cards comes from config', async () => {
    const repo = await recallRepo([NARROW])
    expect(ids(await recall(repo.ctx(), {prompt: 'merge config', paths: ['src/config/json.ts']}))).toEqual([
      'narrow-config-merge-card',
    ])
    expect(ids(await recall(repo.ctx(), {prompt: 'merge config', paths: ['docs/a.md']}))).toEqual([])
    // Commas separate paths within one value, as review modify --set paths= takes them.
    expect(ids(await recall(repo.ctx(), {prompt: 'merge config', paths: ['docs/a.md, src/config/json.ts,']}))).toEqual([
      'narrow-config-merge-card',
    ])
    const r = await cliInProcess(
      ['recall', '--path', 'docs/a.md', '--path', 'src/config/json.ts', 'merge', 'config', '--limit', '2', '--json'],
      {cwd: repo.dir, env: repo.env},
    )
    expect(r.json()).toMatchObject({ok: true, data: {query: 'merge config', cards: [{id: 'narrow-config-merge-card'}]}})
    const old = await cliInProcess(['recall', 'merge config', '--paths', 'docs/a.md', '--json'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect(old.json()).toMatchObject({ok: true, data: {query: 'merge config', cards: []}})
  })

  it('--path is repeatable, takes commas, and never swallows the query, before or after it', async () => {
    const parse = async (argv: string[]) => {
      const {flags, argv: rest} = await Parser.parse(argv, {flags: Recall.flags, args: Recall.args, strict: false})
      return {paths: splitPaths(flags.path), query: (rest as string[]).join(' ')}
    }
    const want = {paths: ['a.ts', 'b.ts'], query: 'merge config'}
    expect(await parse(['--path', 'a.ts', '--path', 'b.ts', 'merge config'])).toEqual(want)
    expect(await parse(['--path', 'a.ts,b.ts', 'merge config'])).toEqual(want)
    expect(await parse(['--path=a.ts,b.ts', 'merge', 'config'])).toEqual(want)
    expect(await parse(['merge config', '--path', 'a.ts', '--path', 'b.ts'])).toEqual(want)
    expect(await parse(['merge', '--paths', 'a.ts,b.ts', 'config'])).toEqual(want)
    expect(await parse(['merge config'])).toEqual({paths: undefined, query: 'merge config'})
  })

  it("a --path without a query is refused as a usage error, in cairn's words", async () => {
    const repo = await recallRepo()
    const r = await cliInProcess(['recall', '--path', 'a.ts'], {cwd: repo.dir, env: repo.env})
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'cairn: Missing the task or question to recall for. Usage: cairn recall <query> [--path <path>]. ' +
        'Fix: give it in quotes, such as: cairn recall "fix the settings page" --path apps/web/src/settings.tsx.\n',
    ])
  })
})

describe('prompt-hook path and the index cache', () => {
  it('builds the index once, then answers warm from it; the same cards as cairn recall', async () => {
    const repo = await recallRepo()
    const prompt = 'Before commit, run git status; also npm pack and test the tarball install'
    const first = await promptRecall(repo.ctx(), {prompt})
    expect(first.rebuiltIndex).toBe(true)
    expect(fs.existsSync(indexPath(projectStoreAt(repo.dir)))).toBe(true)
    const warm = await promptRecall(repo.ctx(), {prompt})
    expect(warm.rebuiltIndex).toBe(false)
    expect(ids(warm).sort()).toEqual(['git-commit-safety', 'release-tarball-smoke-test'])
    expect(ids(await recall(repo.ctx(), {prompt})).sort()).toEqual(ids(warm).sort())
    expect(warm.text).toBe(first.text)
  })

  it('re-reads a card only when its (path, size, ctime) changes', async () => {
    const repo = await recallRepo()
    const file = path.join(repo.dir, '.cairn/cards/guideline/release-tarball-smoke-test.md')
    const pinned = new Date('2026-01-01T00:00:00Z')
    fs.utimesSync(file, pinned, pinned)
    await promptRecall(repo.ctx(), {prompt: 'npm pack'})
    expect((await promptRecall(repo.ctx(), {prompt: 'npm pack'})).rebuiltIndex).toBe(false)
    const text = fs.readFileSync(file, 'utf8')
    // Same size and mtime: the change time still moves, so the edit is seen.
    fs.writeFileSync(file, text.replace('npm pack, tarball install]', 'npm zzzz, tarball install]'))
    fs.utimesSync(file, pinned, pinned)
    const edited = await promptRecall(repo.ctx(), {prompt: 'npm pack'})
    expect(edited.rebuiltIndex).toBe(true)
    expect(ids(edited)).toEqual(ids(await recall(repo.ctx(), {prompt: 'npm pack'})))
    expect((await promptRecall(repo.ctx(), {prompt: 'npm pack'})).rebuiltIndex).toBe(false)
    // A real edit changes the stamp: that file is parsed again.
    fs.writeFileSync(file, text.replace('npm pack, tarball install]', 'npm pack, tarball install, 冒烟安装]'))
    const fresh = await promptRecall(repo.ctx(), {prompt: '冒烟安装'})
    expect(fresh.rebuiltIndex).toBe(true)
    expect(ids(fresh)).toEqual(['release-tarball-smoke-test'])
    fs.rmSync(file)
    expect(ids(await promptRecall(repo.ctx(), {prompt: '冒烟安装'}))).toEqual([])
  })

  it('a corrupt or old-version cache is rebuilt without a word', async () => {
    const repo = await recallRepo()
    const prompt = 'run git status before the commit'
    const expected = ids(await promptRecall(repo.ctx(), {prompt}))
    const file = indexPath(projectStoreAt(repo.dir))
    for (const bad of [
      '{not json',
      '',
      `${JSON.stringify({version: 0, files: [], offsets: []})}\n`,
      fs.readFileSync(file, 'utf8').slice(0, 200),
    ]) {
      fs.writeFileSync(file, bad)
      const r = await recall(repo.ctx(), {prompt})
      expect(r.rebuiltIndex).toBe(true)
      expect(ids(r)).toEqual(expected)
      fs.writeFileSync(file, bad)
      const p = await promptRecall(repo.ctx(), {prompt})
      expect(p.rebuiltIndex).toBe(true)
      expect(ids(p)).toEqual(expected)
    }
  })

  it('recall.max_cards and recall.budget_chars come from config; the cache notices a config change', async () => {
    const cards = ['alpha', 'bravo', 'charlie'].map(w => ({
      id: `deploy-checklist-${w}-card`,
      title: `Deploy checklist ${w}`,
      summary: 'x'.repeat(150),
      recall: {policy: 'should', triggers: ['deploy checklist']},
      scope: {level: 'global'},
    }))
    const repo = await recallRepo(cards)
    expect((await promptRecall(repo.ctx(), {prompt: 'run the deploy checklist'})).cards).toHaveLength(3)
    const config = repo
      .read('.cairn/config.yaml')
      .replace('max_cards: 4', 'max_cards: 2')
      .replace('budget_chars: 2400', 'budget_chars: 300')
    repo.write('.cairn/config.yaml', config)
    for (const r of [
      await promptRecall(repo.ctx(), {prompt: 'run the deploy checklist'}),
      await recall(repo.ctx(), {prompt: 'run the deploy checklist'}),
    ]) {
      expect(r.cards).toHaveLength(2)
      expect(r.text.length).toBeLessThanOrEqual(300)
      expect(r.text).toContain('cairn show deploy-checklist-')
    }
  })

  it('reads both stores; the project copy wins on the same id', async () => {
    const repo = await recallRepo()
    const home = repo.env.CAIRN_HOME as string
    const personal = (id: string, title: string, trigger: string) =>
      `---\nschema: cairn/card@1\nid: ${id}\ntype: guideline\nstatus: active\ntitle: ${title}\nsummary: A personal lesson.\nrecall: {triggers: [${trigger}]}\nscope: {level: global}\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n---\n`
    fs.mkdirSync(path.join(home, 'cards/guideline'), {recursive: true})
    fs.writeFileSync(path.join(home, 'config.yaml'), 'schema: cairn/config@1\n')
    fs.writeFileSync(
      path.join(home, 'cards/guideline/git-commit-safety.md'),
      personal('git-commit-safety', 'PERSONAL COPY', 'git status'),
    )
    fs.writeFileSync(
      path.join(home, 'cards/guideline/personal-shell-alias-habit.md'),
      personal('personal-shell-alias-habit', 'My shell alias habit', 'shell alias'),
    )
    repo.git('-C', home, 'init', '-q')
    for (const r of [
      await promptRecall(repo.ctx(), {prompt: 'git status, then my shell alias'}),
      await recall(repo.ctx(), {prompt: 'git status, then my shell alias'}),
    ]) {
      expect(r.cards.map(c => `${c.id}:${c.store}:${c.title}`).sort()).toEqual([
        'git-commit-safety:project:Keep unrelated changes out of a commit',
        'personal-shell-alias-habit:personal:My shell alias habit',
      ])
    }
  })

  it('outside any project, the personal store alone is searched and indexed in $CAIRN_HOME/.cache', async () => {
    const repo = await recallRepo()
    const home = repo.env.CAIRN_HOME as string
    fs.mkdirSync(path.join(home, 'cards/guideline'), {recursive: true})
    fs.writeFileSync(path.join(home, 'config.yaml'), 'schema: cairn/config@1\n')
    fs.writeFileSync(
      path.join(home, 'cards/guideline/personal-shell-alias-habit.md'),
      '---\nschema: cairn/card@1\nid: personal-shell-alias-habit\ntype: guideline\nstatus: active\ntitle: Shell aliases\nsummary: Use my aliases.\nrecall: {triggers: [shell alias]}\nscope: {level: global}\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n---\n',
    )
    repo.git('-C', home, 'init', '-q')
    const elsewhere = fs.mkdtempSync(path.join(path.dirname(repo.dir), 'no-repo-'))
    const ctx = repo.ctx({cwd: elsewhere})
    expect((await promptRecall(ctx, {prompt: 'set up a shell alias'})).cards.map(c => c.id)).toEqual([
      'personal-shell-alias-habit',
    ])
    expect(fs.existsSync(path.join(home, '.cache', 'recall-index'))).toBe(true)
    expect((await recall(ctx, {prompt: 'set up a shell alias'})).cards.map(c => `${c.id}:${c.store}`)).toEqual([
      'personal-shell-alias-habit:personal',
    ])
  })

  it('bin/prompt-recall.js runs the hook path without oclif, from argv or a hook payload on stdin', async () => {
    const repo = await recallRepo()
    const entry = path.join(ROOT, 'bin/prompt-recall.js')
    const argv = spawnSync(process.execPath, [entry, 'run', 'git', 'status'], {
      cwd: repo.dir,
      env: repo.env,
      encoding: 'utf8',
    })
    expect(argv.status).toBe(0)
    expect(argv.stdout).toContain('(git-commit-safety)')
    const payload = spawnSync(process.execPath, [entry, '--json'], {
      cwd: repo.dir,
      env: repo.env,
      encoding: 'utf8',
      input: JSON.stringify({session_id: 's', prompt: 'npm pack then tarball install'}),
    })
    expect(JSON.parse(payload.stdout).data.cards.map((c: {id: string}) => c.id)).toEqual(['release-tarball-smoke-test'])
  })

  it('the prompt-hook module graph (compiled) statically loads no oclif, git library, YAML parser, zod or re2js', () => {
    // re2js loads only when a store has project signals (signalRegistry in app/prompt-recall.ts).
    const heavy = ['@oclif/core', 'yaml', 'zod', 'gray-matter', 'isomorphic-git', 'simple-git', 're2js']
    const seen = new Set<string>()
    const reached: string[] = []
    const walk = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(/^(?:import|export)\s(?:[^'"]*?from\s+)?['"]([^'"]+)['"]/gm)) {
        const spec = m[1]
        if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec))
        else reached.push(spec)
      }
    }
    walk(path.join(ROOT, 'dist/app/prompt-recall.js'))
    expect(reached.filter(s => heavy.includes(s))).toEqual([])
    expect(fs.readFileSync(path.join(ROOT, 'bin/prompt-recall.js'), 'utf8')).not.toContain('@oclif')
  })
})
