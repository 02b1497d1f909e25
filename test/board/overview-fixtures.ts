import type {Repo} from '../helpers.js'
import {annotate, commit, T, us03Repo} from './helpers.js'

/** US-03 reshaped: the trip's child budget halved, visa raised with an explicit share, two PRs merged, reading withdrawn. */
export const RESHAPE = {
  batch_id: 'reshape',
  declarations: [
    {op: 'supersedes', id: 'trip', kind: 'topic', weight: 4, budget: 50},
    {
      op: 'supersedes',
      id: 'visa',
      kind: 'request',
      weight: 5,
      share: 35,
      reason: 'The statement decides whether the trip happens.',
    },
    {op: 'merges', from: ['pr-a', 'pr-b'], id: 'prs', kind: 'result', weight: 2, summary: 'Both PRs merged.'},
    {op: 'withdraw', id: 'reading'},
  ],
}

export async function planted(): Promise<Repo> {
  const repo = await us03Repo()
  await annotate(repo, 'visa', 'Statement on Friday.', 'note-1', T(9, 8))
  await commit(repo, RESHAPE, T(12))
  return repo
}
