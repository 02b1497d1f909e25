#!/usr/bin/env node
// Imports every project of the real rule-file corpus as a user would, and scores what the cards do.
//
//   npm run build && node evals/rule-corpus/run.mjs [--verbose] [--json FILE] [--keep]
//
// Each project (evals/rule-corpus/{en,zh}/<owner>__<repo>.json: its files, byte for byte, with the repository, commit
// and licence they came from) is written into a fresh git repository under a temp dir, with HOME and CAIRN_HOME there
// too. There it runs `cairn init`, `cairn import <kind>` for each kind it holds (without PATH, and with the path of a
// file the default places do not reach), `cairn review approve --all`, `cairn lint` and the same imports again. Then:
// - positives: the prompt recalls the card of the intended rule (the prompt hook's own path, promptRecall), or the
//   rule is a core card that session start loads;
// - negatives: the prompt recalls no card (core cards load at session start whatever the prompt, by design);
// - paths: the PreToolUse hook (the real CLI, `cairn hook pre-tool-use --agent claude`) shows the card for a write to
//   the matching path, and not for one to the other path.
import {execFileSync, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {importProject, loadCases, loadProjects, ofKind} from './corpus.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '../..')
const dist = p => import(path.join(root, 'dist', p))
const {createContext} = await dist('context.js')
const {init} = await dist('app/init.js')
const {importRules} = await dist('app/import.js')
const {approve} = await dist('app/review.js')
const {lint} = await dist('app/lint.js')
const {promptRecall} = await dist('app/prompt-recall.js')

const verbose = process.argv.includes('--verbose')
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null
const cases = loadCases()
const projects = loadProjects()
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-rule-corpus-'))
const strip = s => s.replace(/[*_`]/g, '').trim()
const report = {projects: [], positives: [], negatives: [], paths: []}

try {
  for (const p of projects) {
    const repo = path.join(tmp, p.dir, 'repo')
    const home = path.join(tmp, p.dir, 'home')
    fs.mkdirSync(home, {recursive: true})
    for (const [file, text] of Object.entries(p.files)) {
      fs.mkdirSync(path.dirname(path.join(repo, file)), {recursive: true})
      fs.writeFileSync(path.join(repo, file), text)
    }
    const git = (...args) => execFileSync('git', args, {cwd: repo, encoding: 'utf8'})
    git('init', '-q', '-b', 'main')
    git('-c', 'user.name=eval', '-c', 'user.email=eval@example.com', 'add', '-A')
    git('-c', 'user.name=eval', '-c', 'user.email=eval@example.com', 'commit', '-qm', 'the project')
    const env = {
      ...process.env,
      HOME: home,
      CAIRN_HOME: path.join(home, '.cairn'),
      GIT_AUTHOR_NAME: 'eval',
      GIT_AUTHOR_EMAIL: 'eval@example.com',
      GIT_COMMITTER_NAME: 'eval',
      GIT_COMMITTER_EMAIL: 'eval@example.com',
    }
    const ctx = createContext({cwd: repo, env, actor: 'eval', progress: () => {}, warn: () => {}})
    await init(ctx)

    const files = Object.keys(p.files)
    const importAll = () => importProject(importRules, ctx, p)
    const first = await importAll()
    const cards = first.flatMap(r => r.cards)
    const failed = first.flatMap(r => r.failed)
    await approve(ctx, {all: true})
    const linted = await lint(ctx)
    const second = await importAll()
    const added = second.flatMap(r => r.cards).filter(c => c.outcome !== 'skipped')
    const start = hook(repo, env, 'session-start', {hook_event_name: 'SessionStart', source: 'startup'})
    // The core block's entries read "### <title> (<id>)"; the catalog after it names recall cards, which do not count.
    const core = cards.filter(c => start.includes(`(${c.id})\\n`)).map(c => c.id)
    report.projects.push({
      dir: p.dir,
      kinds: p.kinds,
      files: files.length,
      cards: cards.length,
      failed: failed.map(f => ({file: f.file, issues: f.issues.map(i => `${i.field}: ${i.message}`)})),
      lintErrors: linted.errors,
      lintProblems: linted.problems.filter(x => x.severity === 'error').map(x => `${x.file} ${x.field}: ${x.message}`),
      lintWarnings: linted.warnings,
      secondImportAdded: added.length,
      core,
    })

    const target = c => {
      const fromFile = cards.filter(x => x.source === c.file)
      if (!c.heading) return fromFile.length === 1 ? fromFile : fromFile
      return fromFile.filter(x => strip(x.title) === strip(c.heading))
    }
    for (const c of cases.positives.filter(x => x.dir === p.dir)) {
      const want = target(c).map(x => x.id)
      const got = (await promptRecall(ctx, {prompt: c.prompt})).cards.map(x => x.id)
      const hit = want.some(id => got.includes(id)) ? 'recalled' : want.some(id => core.includes(id)) ? 'core' : null
      report.positives.push({id: c.id, lang: c.lang, corpus: c.corpus, kind: kindOf(p, c.file), want, got, hit})
    }
    for (const c of cases.negatives.filter(x => x.dir === p.dir)) {
      const got = (await promptRecall(ctx, {prompt: c.prompt})).cards.map(x => x.id)
      report.negatives.push({id: c.id, lang: c.lang, corpus: c.corpus, got, pass: got.length === 0})
    }
    for (const c of cases.paths.filter(x => x.dir === p.dir)) {
      const want = target(c).map(x => x.id)
      const shown = file =>
        hook(repo, env, 'pre-tool-use', {
          hook_event_name: 'PreToolUse',
          session_id: `${c.id}-${file}`,
          tool_name: 'Write',
          tool_input: {file_path: path.join(repo, file), content: 'x'},
        })
      const onMatch = want.some(id => shown(c.match).includes(id))
      const onOther = want.some(id => shown(c.nomatch).includes(id))
      report.paths.push({id: c.id, want, onMatch, onOther, pass: want.length > 0 && onMatch && !onOther})
    }
  }
} finally {
  if (process.argv.includes('--keep')) console.error(`kept: ${tmp}`)
  else fs.rmSync(tmp, {recursive: true, force: true})
}

function hook(cwd, env, event, payload) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/run.js'), 'hook', event, '--agent', 'claude'], {
    cwd,
    env,
    input: JSON.stringify({session_id: 'eval', cwd, ...payload}),
    encoding: 'utf8',
  })
  return r.stdout
}

function kindOf(p, file) {
  return p.kinds.find(k => ofKind(k, file)) ?? p.kinds[0]
}

const count = (xs, f) => xs.filter(f).length
const pos = report.positives
const summary = {
  projectsImportedWhole: count(report.projects, x => x.failed.length === 0),
  projects: report.projects.length,
  positives: `${count(pos, x => x.hit)}/${pos.length} (recalled ${count(pos, x => x.hit === 'recalled')}, core ${count(pos, x => x.hit === 'core')})`,
  negatives: `${count(report.negatives, x => x.pass)}/${report.negatives.length}`,
  paths: `${count(report.paths, x => x.pass)}/${report.paths.length}`,
  secondImportAdded: report.projects.reduce((n, x) => n + x.secondImportAdded, 0),
  lintErrors: report.projects.reduce((n, x) => n + x.lintErrors, 0),
  byGroup: Object.fromEntries(
    ['en>en', 'zh>en', 'zh>zh', 'en>zh'].map(g => {
      const [lang, corpus] = g.split('>')
      const xs = pos.filter(x => x.lang === lang && x.corpus === corpus)
      return [`${lang} prompt, ${corpus} rules`, `${count(xs, x => x.hit)}/${xs.length}`]
    }),
  ),
  byKind: Object.fromEntries(
    [...new Set(pos.map(x => x.kind))].map(k => [k, `${count(pos, x => x.kind === k && x.hit)}/${count(pos, x => x.kind === k)}`]),
  ),
}
if (verbose) {
  for (const x of report.projects) if (x.failed.length || x.lintErrors) console.log('PROJECT', JSON.stringify(x))
  for (const x of pos.filter(x => !x.hit)) console.log('MISS', x.id, JSON.stringify(x.want), '→', JSON.stringify(x.got))
  for (const x of pos.filter(x => !x.want.length)) console.log('NO TARGET', x.id)
  for (const x of report.negatives.filter(x => !x.pass)) console.log('NOISE', x.id, JSON.stringify(x.got))
  for (const x of report.paths.filter(x => !x.pass)) console.log('PATH', JSON.stringify(x))
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({summary, ...report}, null, 1))
console.log(JSON.stringify(summary, null, 1))
