import {describe, expect, it} from 'vitest'
import {ciReview} from '../src/app/ci-review.js'
import {orgAdd, orgRemove, orgUpdate} from '../src/app/org.js'
import {initRepo, type Repo} from './helpers.js'
import {makeOrg, type Org} from './org-ci-helpers.js'

/**
 * A project subscribed on main to an org store with two cards; then the org adds one, changes one and removes one,
 * and the branch `feature` runs `cairn org update`.
 */
async function moved(language: 'en' | 'zh-CN' = 'en'): Promise<{org: Org; project: Repo; from: string; to: string}> {
  const org = await makeOrg(['never-log-personal-data', 'every-cron-job-is-idempotent'])
  const project = await initRepo()
  if (language !== 'en') {
    const file = '.cairn/config.yaml'
    project.write(file, project.read(file).replace('knowledge_language: en', `knowledge_language: ${language}`))
    project.git('commit', '-qam', 'speak Chinese')
  }
  const from = (await orgAdd(project.ctx(), {url: org.url})).layer.commit
  await org.addCard('release-only-on-tuesdays')
  const file = '.cairn/cards/guideline/every-cron-job-is-idempotent.md'
  org.repo.write(file, org.repo.read(file).replace('The org says', 'The org now says'))
  org.repo.git('commit', '-qam', 'reword')
  org.removeCard('never-log-personal-data')
  project.git('checkout', '-qb', 'feature')
  const update = await orgUpdate(project.ctx(), {})
  return {org, project, from, to: update.layers[0].to}
}

/** The comment's org section: its heading to the blank line after its list. */
const orgSection = (comment: string, heading: string) => {
  const start = comment.indexOf(heading)
  return start < 0 ? null : comment.slice(start, comment.indexOf('\n\n', comment.indexOf('\n- ', start)))
}

describe('cairn ci review: a pull request that moves an org pin', () => {
  it('lists per layer the old and new commit and the cards the change brings', async () => {
    const {org, project, from, to} = await moved()
    // The commit cairn org update made lists the same cards (its listing is the one the review reuses).
    expect(project.git('log', '-1', '--format=%B').trim()).toBe(
      [
        `cairn(org): update org layer org to ${to.slice(0, 12)}`,
        '',
        `org: ${from.slice(0, 12)}..${to.slice(0, 12)} (main)`,
        '+ release-only-on-tuesdays',
        '~ every-cron-job-is-idempotent',
        '- never-log-personal-data',
        '',
        'Cairn-Op: org',
        'Cairn-Actor: tester',
        'Cairn-Format: 1',
      ].join('\n'),
    )
    const r = await ciReview(project.ctx(), {since: 'main'})
    expect(r.org).toEqual([
      {
        name: 'org',
        url: org.url,
        ref: 'main',
        from,
        to,
        changes: {
          added: ['release-only-on-tuesdays'],
          changed: ['every-cron-job-is-idempotent'],
          removed: ['never-log-personal-data'],
        },
      },
    ])
    expect(orgSection(r.comment, '### Org layers')).toBe(
      [
        '### Org layers this pull request moves',
        '',
        "Once merged, the project reads these org stores at the new commit. Their cards were reviewed in the org's own repository; these are the active cards each change brings.",
        '',
        `- \`org\`: \`${from.slice(0, 12)}\` → \`${to.slice(0, 12)}\` (\`main\`)`,
        '  - added: `release-only-on-tuesdays`',
        '  - changed: `every-cron-job-is-idempotent`',
        '  - removed: `never-log-personal-data`',
      ].join('\n'),
    )
    expect(r.needed).toBe(true)
    expect(r.check.ok).toBe(true)
  })

  it('speaks Chinese in a zh-CN store', async () => {
    const {project, from, to} = await moved('zh-CN')
    const r = await ciReview(project.ctx(), {since: 'main'})
    expect(orgSection(r.comment, '### 本拉取请求移动的组织层')).toBe(
      [
        '### 本拉取请求移动的组织层',
        '',
        '合并后，项目会在新的提交上读取这些组织仓库。它们的卡片已在组织自己的仓库中评审；下面是每次改动带来的活动卡片。',
        '',
        `- \`org\`：\`${from.slice(0, 12)}\` → \`${to.slice(0, 12)}\`（\`main\`）`,
        '  - 新增：`release-only-on-tuesdays`',
        '  - 修改：`every-cron-job-is-idempotent`',
        '  - 删除：`never-log-personal-data`',
      ].join('\n'),
    )
  })

  it('lists a layer the pull request subscribes to or removes, and says nothing when no pin moved', async () => {
    const org = await makeOrg()
    const project = await initRepo()
    project.git('checkout', '-qb', 'feature')
    const pin = (await orgAdd(project.ctx(), {url: org.url})).layer.commit
    const added = await ciReview(project.ctx(), {since: 'main'})
    expect(orgSection(added.comment, '### Org layers')?.split('\n').slice(4)).toEqual([
      `- \`org\`: subscribed at \`${pin.slice(0, 12)}\` (\`main\`)`,
      '  - added: `never-log-personal-data`',
    ])
    project.git('checkout', '-q', 'main')
    project.git('merge', '-q', 'feature')
    project.git('checkout', '-qb', 'drop')
    expect((await ciReview(project.ctx(), {since: 'main'})).org).toEqual([])
    await orgRemove(project.ctx(), {name: 'org'})
    const removed = await ciReview(project.ctx(), {since: 'main'})
    expect(orgSection(removed.comment, '### Org layers')?.split('\n').slice(4)).toEqual([
      `- \`org\`: unsubscribed (was at \`${pin.slice(0, 12)}\`)`,
      '  - removed: `never-log-personal-data`',
    ])
  })
})
