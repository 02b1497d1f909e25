import {describe, expect, it} from 'vitest'
import {maintain} from '../src/app/maintain.js'
import {show} from '../src/app/show.js'
import {feed, hookRepo, plant, settle} from './hook-helpers.js'

describe('usage events feed maintain', () => {
  it('cards shown by hooks and read with show count as use, so the least used core card is demoted', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('core_budget: 8000', 'core_budget: 260'))
    // Without usage the larger card would go first; it is the one the agent actually reads.
    plant(repo, 'large-core-rule-read-often', {load: 'core'}, 'L'.repeat(120))
    plant(repo, 'small-core-rule-never-read', {load: 'core'}, 'S'.repeat(60))
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'more core')
    await show(repo.ctx(), {id: 'large-core-rule-read-often'})
    await show(repo.ctx(), {id: 'large-core-rule-read-often', section: 'rule'})
    await feed(repo, 'claude', 'user-prompt-submit', {
      session_id: 'u',
      cwd: repo.dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'the flaky login test failed',
    })
    await settle(repo)
    const plan = await maintain(repo.ctx(), {dryRun: true})
    const demotions = plan.actions
      .filter(a => a.action === 'demote')
      .map(a => [a.id, a.detail?.match(/used \d+ time\(s\)/)?.[0]])
    expect(demotions).toEqual([
      ['small-core-rule-never-read', 'used 0 time(s)'],
      ['run-tests-before-push', 'used 0 time(s)'],
    ])
    const events = repo
      .read('.cairn/.local/events.jsonl')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l))
    expect(events.filter(e => e.event === 'card_read').map(e => e.card)).toEqual([
      'large-core-rule-read-often',
      'large-core-rule-read-often',
    ])
    expect(events.filter(e => e.event === 'card_shown').map(e => e.cards)).toEqual([['flaky-login-test']])
  })
})
