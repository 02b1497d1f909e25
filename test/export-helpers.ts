import fs from 'node:fs'
import path from 'node:path'
import {renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {renderBody} from '../src/domain/card/sections.js'
import type {Repo} from './helpers.js'

/**
 * Writes a reviewed card file straight into a store (uncommitted): the project store by default, or the personal
 * store at the sandbox's CAIRN_HOME. Returns the file's path relative to the store's repo.
 */
export function plant(
  repo: Repo,
  id: string,
  over: Record<string, unknown> = {},
  options: {rule?: string; personal?: boolean} = {},
): string {
  const fm = validateFrontmatter({
    schema: 'cairn/card@5',
    id,
    type: 'guideline',
    status: 'active',
    title: `Title ${id}`,
    summary: `Summary of ${id}.`,
    ...over,
  })
  const rule = options.rule ?? `Rule of ${id}.`
  const body = renderBody(
    {problem: fm.summary, use_when: [], ignore_when: [], policy: 'may', risk: 'low', rule, evidence: '-'},
    'en',
  )
  const location = fm.status === 'pending' ? 'pending' : 'cards'
  const rel = `${location}/${fm.type}/${id}.md`
  const root = options.personal ? (repo.env.CAIRN_HOME as string) : path.join(repo.dir, '.cairn')
  fs.mkdirSync(path.join(root, location, fm.type), {recursive: true})
  fs.writeFileSync(path.join(root, rel), renderCard({...fm, body}))
  return options.personal ? rel : `.cairn/${rel}`
}
