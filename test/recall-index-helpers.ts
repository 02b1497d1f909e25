import fs from 'node:fs'
import path from 'node:path'
import {expect} from 'vitest'
import {importOme} from '../src/app/import-ome.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {defer} from '../src/app/review.js'
import {renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {renderBody} from '../src/domain/card/sections.js'
import type {Context} from '../src/context.js'
import type {Store} from '../src/store/layout.js'
import {openStores} from '../src/store/stores.js'
import {indexPath, openIndex} from '../src/recall/open.js'
import {PROOF_FILE, proven} from '../src/recall/proof.js'
import type {Region} from '../src/recall/format.js'
import {openIndexFile, parseHead} from '../src/recall/read.js'
import {card, initRepo, type Repo, templateRepo} from './helpers.js'
import {OME_CARDS} from './recall-helpers.js'

/**
 * Writes an active card into a store's cards/ (base is the store directory). rule: null writes a
 * body with no rule section, so the summary stands in for it.
 */
export function plantCard(
  base: string,
  id: string,
  over: Record<string, unknown> = {},
  rule: string | null = `Rule of ${id}.`,
): string {
  const fm = validateFrontmatter({
    schema: 'cairn/card@1',
    id,
    type: 'guideline',
    status: 'active',
    title: `Title ${id}`,
    summary: `Summary of ${id}.`,
    created: '2026-10-01T00:00:00Z',
    updated: '2026-11-01T00:00:00Z',
    ...over,
  })
  const {policy, risk} = fm.recall
  const body =
    rule === null
      ? `\n## Problem\n\n${fm.summary}\n`
      : renderBody({problem: fm.summary, use_when: [], ignore_when: [], policy, risk, rule, evidence: '-'}, 'en')
  const file = path.join(base, 'cards', fm.type, `${id}.md`)
  fs.mkdirSync(path.dirname(file), {recursive: true})
  fs.writeFileSync(file, renderCard({...fm, body}))
  return file
}

/**
 * The recall fixture (three OME cards) plus what the session regions must sort out: core cards,
 * narrow cards (one with no rule section), a deprecated core card, a pending core card deferred
 * with `review defer`, and a personal store holding a copy of a project core card's id.
 */
export const sessionRepo = templateRepo(async repo => {
  await init(repo.ctx())
  await importOme(repo.ctx(), {path: repo.write('ome-cards.json', JSON.stringify(OME_CARDS)), activate: true})
  const project = path.join(repo.dir, '.cairn')
  const commitStyle = {title: 'Commit message style', load: 'core', recall: {policy: 'must', risk: 'low'}}
  plantCard(project, 'core-commit-message-style', commitStyle, 'Write the subject in the imperative.')
  plantCard(project, 'core-shared-with-personal', {load: 'core'})
  const configMerge = {
    title: 'Merge config arrays',
    recall: {policy: 'must', risk: 'high'},
    scope: {level: 'global', module_path: 'src', paths: ['src/config/**']},
  }
  plantCard(project, 'config-merge-narrow', configMerge, 'Append arrays, never replace them.')
  const docsScope = {level: 'project', project_key: 'github.com/acme/app', paths: ['docs/**', '!docs/tmp/**']}
  plantCard(project, 'narrow-core-card', {type: 'pitfall', load: 'core', scope: docsScope}, null)
  plantCard(project, 'old-deprecated-core', {load: 'core', status: 'deprecated'})
  const deferred = card({
    slug: 'deferred-core-card-for-later',
    type: 'guideline',
    load: 'core',
    title: 'Deferred core card',
  })
  await propose(repo.ctx(), {fields: deferred})
  await defer(repo.ctx(), {id: 'deferred-core-card-for-later', until: '2099-01-01'})
  const home = repo.env.CAIRN_HOME as string
  fs.mkdirSync(home, {recursive: true})
  fs.writeFileSync(path.join(home, 'config.yaml'), 'schema: cairn/config@1\n')
  plantCard(home, 'core-shared-with-personal', {title: 'PERSONAL COPY', load: 'core'})
  plantCard(home, 'personal-core-habit', {load: 'core', scope: {level: 'global'}})
  plantCard(home, 'personal-alias-note', {recall: {triggers: ['shell alias']}})
  repo.git('-C', home, 'init', '-q')
})

export const storesOf = (ctx: Context): Store[] => openStores(ctx).layers()

export const indexFileOf = (repo: Repo): string => indexPath(storesOf(repo.ctx())[0])

/** Whether the proof beside the index vouches for it as the card files stand (the warm path that needs no stat per card). */
export function provenNow(repo: Repo): boolean {
  const stores = storesOf(repo.ctx())
  const opened = openIndexFile(stores[0])
  try {
    return !!opened && proven(opened, stores)
  } finally {
    if (opened) fs.closeSync(opened.fd)
  }
}

/** The proof file's content. */
export const proofOf = (
  repo: Repo,
): {index: string; stores: {git: boolean; digest: string; stamped: string[]; gitIndex?: string; quick?: string}[]} =>
  JSON.parse(fs.readFileSync(path.join(path.dirname(indexFileOf(repo)), PROOF_FILE), 'utf8'))

/**
 * What an index file says, but for the time of its scan and its racy files' pins, which each build
 * sets anew: a rebuild from the same card files gives the same content.
 */
export function contentOf(bytes: Buffer): {header: object; body: Buffer} {
  const head = parseHead(bytes)!
  const {scanned, pins, ...header} = head.header
  return {header, body: bytes.subarray(head.body)}
}

/** A copy of an index file with one byte flipped: at `at`, or in the middle of a region. */
export function flipped(bytes: Buffer, at: number | Region): Buffer {
  let offset = at
  if (typeof offset !== 'number') {
    const head = parseHead(bytes)!
    const [start, length] = head.header.regions[offset]
    offset = head.body + start + (length >> 1)
  }
  const out = Buffer.from(bytes)
  out[offset] ^= 0xff
  return out
}

export const cardsDir = (repo: Repo) => path.join(repo.dir, '.cairn')
export const cardFile = (repo: Repo, id: string) => path.join(repo.dir, '.cairn', 'cards', 'guideline', `${id}.md`)

/** The catalog a hook-mode open answers with (id: title), and whether that open rebuilt the index. */
export async function hookView(repo: Repo): Promise<{rebuilt: boolean; stale: boolean; catalog: string[]}> {
  const index = await openIndex(storesOf(repo.ctx()), {mode: 'hook', coldBuild: true})
  if (!index) throw new Error('no index')
  try {
    return {rebuilt: index.rebuilt, stale: index.stale, catalog: index.catalog().map(c => `${c.id}: ${c.title}`)}
  } finally {
    index.close()
  }
}

/** A project store holding cards alpha-card and beta-card, committed, and its index built. */
export async function libraryRepo(): Promise<Repo> {
  const repo = await initRepo()
  plantCard(cardsDir(repo), 'alpha-card', {title: 'Alpha title one'})
  plantCard(cardsDir(repo), 'beta-card', {title: 'Beta title one'})
  repo.git('add', '-A')
  repo.git('commit', '-q', '-m', 'cards')
  expect(await hookView(repo)).toEqual({
    rebuilt: true,
    stale: false,
    catalog: ['alpha-card: Alpha title one', 'beta-card: Beta title one'],
  })
  expect((await hookView(repo)).rebuilt).toBe(false)
  return repo
}

/**
 * The next open answers with this catalog, whether it had to rebuild or not (a file whose stamp changed
 * but whose content did not needs none: git vouches for it), and the open after it finds the index fresh.
 */
export async function current(repo: Repo, catalog: string[]): Promise<void> {
  expect((await hookView(repo)).catalog).toEqual(catalog)
  expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog})
}

/** Each change is seen by the next open, which rebuilds; the open after it finds the index fresh. */
export async function seen(repo: Repo, catalog: string[]): Promise<void> {
  expect(await hookView(repo)).toEqual({rebuilt: true, stale: false, catalog})
  expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog})
}
