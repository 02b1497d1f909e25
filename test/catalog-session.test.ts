import {describe, expect, it} from 'vitest'
import {feed, hookRepo, plant, settle} from './hook-helpers.js'

/** The catalog part of a Claude Code session-start answer (the last part: it has the lowest priority). */
async function catalogOf(repo: Awaited<ReturnType<typeof hookRepo>>): Promise<string> {
  const payload = {
    session_id: 's1',
    transcript_path: null,
    cwd: repo.dir,
    permission_mode: 'default',
    hook_event_name: 'SessionStart',
  }
  const r = await feed(repo, 'claude', 'session-start', payload)
  await settle(repo)
  const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext
  return context.split('\n\n').at(-1)!
}

const budget = (repo: Awaited<ReturnType<typeof hookRepo>>, n: number) =>
  repo.write(
    '.cairn/config.yaml',
    repo.read('.cairn/config.yaml').replace('catalog_budget: 3000', `catalog_budget: ${n}`),
  )

describe('session-start catalog', () => {
  it('gives each recall card a line with its title and first use_when, else its summary', async () => {
    const repo = await hookRepo()
    plant(repo, 'fix-crlf-in-lockfile', {
      title: 'Lockfiles must stay LF',
      category: 'git',
      criteria: {use_when: ['editing package-lock.json on Windows', 'running npm install'], ignore_when: []},
    })
    expect(await catalogOf(repo)).toBe(
      [
        'cairn catalog (recall cards; `cairn show ID` reads one, `cairn show ID --section rule` just its rule):',
        '- backup-before-migration: Back up before a migration. Take a database backup before running any migration.',
        '- fix-crlf-in-lockfile: Lockfiles must stay LF. Use when: editing package-lock.json on Windows',
        '- flaky-login-test: The login test is flaky under load. The login e2e test times out under parallel load; run it alone.',
      ].join('\n'),
    )
  })

  it('over budget, lists the categories with their counts and how to list one', async () => {
    const repo = await hookRepo()
    for (const id of ['fix-crlf-in-lockfile', 'rebase-before-merge-request']) plant(repo, id, {category: 'git'})
    plant(repo, 'cache-node-modules-in-ci', {category: 'ci'})
    budget(repo, 300)
    expect(await catalogOf(repo)).toBe(
      'cairn catalog: 5 recall cards, too many to list, by category (`cairn list --category NAME` lists one; ' +
        '`cairn show ID` reads a card):\ngeneral (2), git (2), ci (1)',
    )
  })
})
