// lint-recall: `cairn lint` over the recall benchmark's library (bench/recall-cards.js, 1,000 cards
// by default, BENCH_LINT_RECALL_CARDS to change it), whose lint includes the `unreachable` check:
// each active card's title and summary are matched as a prompt against one open of the recall index.
// Rows: with the index already built ("warm"), and with .cairn/.cache removed before each run ("cold").
import fs from 'node:fs'
import path from 'node:path'
import {log, makeRepo, measure} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'

export const description = 'cairn lint over the recall library, warm and cold index'

const CARDS = Number(process.env.BENCH_LINT_RECALL_CARDS ?? 1000)
const RUNS = 3

export async function run() {
  const repo = await makeRepo()
  try {
    writeLibrary(repo.dir, CARDS)
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'library')
    const cache = path.join(repo.dir, '.cairn', '.cache')
    const verify = r => {
      const {checked, errors, problems} = JSON.parse(r.stdout).data
      if (checked !== CARDS || errors !== 0)
        throw new Error(`lint checked ${checked} cards with ${errors} errors; expected ${CARDS} clean cards`)
      const byRule = {}
      for (const p of problems) byRule[p.rule] = (byRule[p.rule] ?? 0) + 1
      log(`warnings by rule: ${JSON.stringify(byRule)}`)
    }
    const command = () => ({args: ['lint', '--json'], cwd: repo.dir, env: repo.env})
    await repo.cairn(['lint', '--json'])
    const warm = await measure({
      name: `lint ${CARDS} cards, warm index`,
      runs: RUNS,
      command,
      verify,
      extra: {cards: CARDS},
    })
    const cold = await measure({
      name: `lint ${CARDS} cards, cold index`,
      runs: RUNS,
      setup: async () => fs.rmSync(cache, {recursive: true, force: true}),
      command,
      verify,
      extra: {cards: CARDS},
    })
    return [warm, cold]
  } finally {
    repo.remove()
  }
}
