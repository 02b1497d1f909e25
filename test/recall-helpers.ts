import fs from 'node:fs'
import path from 'node:path'
import {importOme} from '../src/app/import-ome.js'
import {init} from '../src/app/init.js'
import {initRepo, type Repo, templateRepo} from './helpers.js'

/** OME-shaped cards used across the recall tests. */
export const OME_CARDS = [
  {
    id: 'browser-validation',
    title: '前端改动必须做真实浏览器验收',
    category: '测试验收',
    summary: '前端 UI 改动不能只靠静态检查，必须在真实浏览器里按用户路径验收。',
    criteria: {use_when: ['浏览器验证', 'real browser'], ignore_when: ['只改文档', 'git status']},
    recall: {
      policy: 'must',
      risk: 'high',
      triggers: ['浏览器验证', 'real browser', 'browser validation'],
      topics: ['frontend'],
    },
    engine_hints: {positive: ['ui_surface'], negative: ['ui_surface_noise']},
    scope: {level: 'global'},
    rule: 'Open the real page, follow the user path, check the console.',
  },
  {
    id: 'git-commit-safety',
    title: 'Keep unrelated changes out of a commit',
    category: 'git',
    summary: 'Before a commit, check git status and stage only the task files.',
    criteria: {use_when: ['commit scope'], ignore_when: ['read-only analysis']},
    recall: {policy: 'must', risk: 'high', triggers: ['git status', 'staged diff', 'dirty worktree'], topics: ['git']},
    engine_hints: {positive: ['worktree_diff_operation']},
    scope: {level: 'global'},
    rule: 'Stage only the files of the task.',
  },
  {
    id: 'release-tarball-smoke-test',
    title: 'Install the packed tarball before a release',
    category: 'release',
    summary: 'Before claiming release readiness, install the npm tarball into a clean temp project.',
    criteria: {use_when: ['npm pack', 'tarball install']},
    recall: {policy: 'should', triggers: ['npm pack', 'tarball install'], topics: ['package']},
    scope: {level: 'global'},
    rule: 'npm pack, install into a temp dir, run the CLI.',
  },
]

async function importCards(repo: Repo, cards: unknown[]): Promise<void> {
  const file = path.join(path.dirname(repo.dir), 'ome-cards.json')
  fs.writeFileSync(file, JSON.stringify(cards))
  await importOme(repo.ctx(), {path: file, activate: true})
}

const omeRepo = templateRepo(async repo => {
  await init(repo.ctx())
  await importCards(repo, OME_CARDS)
})

/** A temp repo with an initialised store and the given OME cards imported as active cards. */
export async function recallRepo(cards: unknown[] = OME_CARDS): Promise<Repo> {
  if (cards === OME_CARDS) return omeRepo()
  const repo = await initRepo()
  await importCards(repo, cards)
  return repo
}
