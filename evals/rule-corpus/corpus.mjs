// The real rule-file corpus: its projects, which importer reads which file, and importing one project as a user
// would. Shared by run.mjs (the scores) and test/import-rule-corpus.test.ts (the import half, in npm test).
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const CORPUS = path.dirname(fileURLToPath(import.meta.url))

/** Every project, English ones first: {lang, dir, repo, commit, licence, kinds, files: {path: text}}. */
export function loadProjects() {
  return ['en', 'zh'].flatMap(lang =>
    fs
      .readdirSync(path.join(CORPUS, lang))
      .filter(f => f.endsWith('.json'))
      .sort()
      .map(f => ({lang, dir: f.replace(/\.json$/, ''), ...JSON.parse(fs.readFileSync(path.join(CORPUS, lang, f), 'utf8'))})),
  )
}

/** The blind cases: {positives, negatives, paths}. */
export const loadCases = () => JSON.parse(fs.readFileSync(path.join(CORPUS, 'cases.json'), 'utf8'))

const OF_KIND = {
  'claude-md': /(^|\/)(CLAUDE|AGENTS|GEMINI)\.md$/i,
  'cursor-rules': /\.mdc$/,
  copilot: /(^|\/)\.github\/(copilot-instructions\.md$|instructions\/)/,
  kiro: /(^|\/)\.kiro\/steering\//,
  adr: /^(?!.*(^|\/)(readme|index|template)\.md$).*\.md$/i,
}

/** Whether the importer of this kind reads the file. */
export const ofKind = (kind, file) => OF_KIND[kind].test(file)

/**
 * Imports a project as a user would: `cairn import <kind>` for each kind it holds, without PATH, then each file of
 * that kind the default places did not reach, by its own path. Returns the import results.
 */
export async function importProject(importRules, ctx, project) {
  const results = []
  for (const kind of project.kinds) {
    const r = await importRules(ctx, {kind}).catch(e => (e.code === 'not_found' ? null : Promise.reject(e)))
    if (r) results.push(r)
    const reached = new Set(results.flatMap(x => [...x.cards.map(c => c.source), ...x.failed.map(f => f.file)]))
    for (const f of Object.keys(project.files).filter(f => !reached.has(f) && ofKind(kind, f)))
      results.push(await importRules(ctx, {kind, path: f}))
  }
  return results
}
