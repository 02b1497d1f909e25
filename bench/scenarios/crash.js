// crash: kill -9 in the middle of a 1,000-card propose and approve --all, then the next cairn
// write. The timed run is that next write (a one-card propose), which first finishes or rolls
// back the interrupted one. Verified: it says which, the store is as before or as after, no
// cairn file is left staged or untracked, and lint passes. CAIRN_TEST_CRASH picks the step.
import fs from 'node:fs'
import path from 'node:path'
import {countFiles, makeRepo, measure, mustSucceed, runCli} from '../lib.js'
import {generateCards} from './approve.js'

export const description = 'kill -9 mid-write at 1,000 cards, then the next write recovers (fresh repo per run)'

const CARDS = 1000
const POINTS = ['rename:500', 'during-commit']
const EXTRA = {
  slug: 'extra-card-after-crash',
  type: 'pitfall',
  title: 'After a crash',
  summary: 'When cairn was killed mid-write, the next write finishes or rolls it back first.',
  source_sessions: ['bench'],
}

const OPS = {
  propose: {
    prepare: async () => {},
    args: file => ['propose', file],
    // Before: no pending card; after: all of them (the extra card aside).
    states: repo => [0, CARDS].includes(countFiles(path.join(repo.dir, '.cairn', 'pending')) - 1),
  },
  approve: {
    prepare: async (repo, file) => mustSucceed(repo.cairn(['propose', file]), `propose ${CARDS} cards`),
    args: () => ['review', 'approve', '--all'],
    states: repo => {
      const pending = countFiles(path.join(repo.dir, '.cairn', 'pending')) - 1
      const active = countFiles(path.join(repo.dir, '.cairn', 'cards'))
      return (pending === CARDS && active === 0) || (pending === 0 && active === CARDS)
    },
  },
}

export async function run() {
  const json = JSON.stringify(generateCards(CARDS))
  const rows = []
  for (const [op, spec] of Object.entries(OPS)) {
    for (const point of POINTS) {
      rows.push(
        await measure({
          name: `next write after ${op} of ${CARDS} killed at ${point}`,
          runs: 1,
          setup: async () => {
            const repo = await makeRepo()
            const file = path.join(repo.base, 'cards.json')
            fs.writeFileSync(file, json)
            fs.writeFileSync(path.join(repo.base, 'extra.json'), JSON.stringify(EXTRA))
            await spec.prepare(repo, file)
            const killed = await runCli(spec.args(file), {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}})
            // Under GNU time (peak RSS) the kill shows as exit 137.
            if (killed.signal !== 'SIGKILL' && ![-1, 137].includes(killed.code))
              throw new Error(`${op} was not killed at ${point} (exit ${killed.code})`)
            return {repo}
          },
          command: ({repo}) => ({args: ['propose', path.join(repo.base, 'extra.json')], cwd: repo.dir, env: repo.env}),
          verify: async (r, {repo}) => {
            if (!/warning: (rolled back|finished) an interrupted cairn/.test(r.stderr))
              throw new Error(`no recovery warning: ${r.stderr.slice(0, 500)}`)
            const dirty = repo.git('status', '--porcelain', '--untracked-files=all', '.cairn').trim()
            if (dirty) throw new Error(`cairn files left uncommitted:\n${dirty.slice(0, 500)}`)
            if (!spec.states(repo)) throw new Error('the store is neither as before nor as after the killed command')
            await mustSucceed(repo.cairn(['lint']), 'lint after recovery')
          },
          teardown: ({repo}) => repo.remove(),
          extra: {cards: CARDS},
        }),
      )
    }
  }
  return rows
}
