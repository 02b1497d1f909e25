import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {approve} from '../src/app/review.js'
import {card, templateRepo} from './helpers.js'

const repoWithCard = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {
    fields: card({slug: 'lockfile-drift-after-rebase', title: 'Lockfile drift after rebase', summary: 'Run npm ci.'}),
    phrases: {triggers: ['npm ci fails after rebase']},
  })
  await approve(repo.ctx(), {all: true})
})

describe("recall never matches cairn's own text", () => {
  it('a prompt that echoes the light index cairn injected recalls nothing from it; the same words typed do', async () => {
    const repo = await repoWithCard()
    const first = await recall(repo.ctx(), {prompt: 'npm ci fails after rebase'})
    expect(first.cards.map(c => c.id)).toEqual(['lockfile-drift-after-rebase'])
    const echoed = `${first.text}\n\nrename the settings page title`
    expect((await recall(repo.ctx(), {prompt: echoed})).cards).toEqual([])
    const typed = `${first.text}\n\nnpm ci fails after rebase again`
    expect((await recall(repo.ctx(), {prompt: typed})).cards.map(c => c.id)).toEqual(['lockfile-drift-after-rebase'])
  })
})
