import fs from 'node:fs'
import path from 'node:path'
import {Readable} from 'node:stream'
import {init} from '../src/app/init.js'
import {runHook} from '../src/agents/run.js'
import {renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {renderBody} from '../src/domain/card/sections.js'
import {waitForIndexRebuild} from '../src/recall/open.js'
import {projectStoreAt} from '../src/store/layout.js'
import {FIXED_NOW, type Repo, templateRepo} from './helpers.js'

/** Writes an active card straight into cards/<type>/ (as review would leave it). */
export function plant(repo: Repo, id: string, over: Record<string, unknown> = {}, rule = `Rule of ${id}.`): string {
  const {
    policy = 'may',
    risk = 'medium',
    recall: more = {},
    ...rest
  } = over as {policy?: string; risk?: string; recall?: object}
  const recall = {policy, risk, ...more}
  const fm = validateFrontmatter({
    schema: 'cairn/card@1',
    id,
    type: 'guideline',
    status: 'active',
    title: `Title ${id}`,
    summary: `Summary of ${id}.`,
    created: '2026-10-01T00:00:00Z',
    updated: '2026-11-01T00:00:00Z',
    approved: {by: 'tester', at: '2026-10-02T00:00:00Z'},
    ...rest,
    recall,
  })
  const body = renderBody(
    {
      problem: fm.summary,
      use_when: [],
      ignore_when: [],
      policy: fm.recall.policy,
      risk: fm.recall.risk,
      rule,
      evidence: '-',
    },
    'en',
  )
  const rel = `.cairn/cards/${fm.type}/${id}.md`
  repo.write(rel, renderCard({...fm, body}))
  return rel
}

/**
 * A project with one core card, one recall card a prompt can find, and one narrow must + high
 * card on db/migrations/**, committed.
 */
export const hookRepo = templateRepo(async repo => {
  await init(repo.ctx())
  plant(
    repo,
    'run-tests-before-push',
    {load: 'core', title: 'Run the tests before pushing'},
    'Run npm test before every git push.',
  )
  plant(repo, 'flaky-login-test', {
    title: 'The login test is flaky under load',
    summary: 'The login e2e test times out under parallel load; run it alone.',
    recall: {
      triggers: ['flaky login test', 'login test timeout'],
      aliases: {en: ['login e2e flaky'], zh: ['登录测试不稳定']},
    },
  })
  plant(
    repo,
    'backup-before-migration',
    {
      title: 'Back up before a migration',
      summary: 'Take a database backup before running any migration.',
      policy: 'must',
      risk: 'high',
      scope: {level: 'project', project_key: null, module_path: null, paths: ['db/migrations/**']},
    },
    'Run scripts/backup.sh and check the dump before you change a migration.',
  )
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'planted cards')
})

export interface Fed {
  stdout: string
  error?: string
  stderr?: string
}

/** Runs one hook event in process, as the client would: the payload on stdin, the sandbox env. */
export async function feed(
  repo: Repo,
  agent: string,
  event: string,
  payload: unknown,
  env: Record<string, string> = {},
): Promise<Fed> {
  const stdin = Readable.from([Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload))])
  const r = await runHook([event, '--agent', agent], {stdin, env: {...repo.env, ...env}, cwd: repo.dir, now: FIXED_NOW})
  return r
}

/** Waits for a background index rebuild the hook started, so none outlives the test's temp dir. */
export async function settle(repo: Repo): Promise<void> {
  await waitForIndexRebuild(projectStoreAt(repo.dir), 30_000)
}

export const errorLog = (repo: Repo): string[] => {
  const file = path.join(repo.dir, '.cairn/.local/hook-errors.log')
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []
}
