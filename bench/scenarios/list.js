// list: `cairn list` over libraries of 1,000 and 10,000 active cards (the recall benchmark's canonical
// library), answered from the card cache: "cold" removes .cairn/.cache/cards.json before each run (the list
// summaries, list.json, are made from it, so they are made again too), "warm" lists again with both in place; beside the floor (`node -e 0`) and `cairn --version`, the start-up every
// command pays. BENCH_LIST_SIZES (default 1000,10000) picks the sizes. BENCH_BASELINE, a checkout of
// another cairn with dist/ built, is measured in the same rounds (interleaved), and every run of either
// must print the same list.
import fs from 'node:fs'
import path from 'node:path'
import {baselineBin, interleaved, log, makeRepo, mustSucceed} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'

export const description = 'cairn list: 1,000 and 10,000 active cards, card cache cold and warm, beside node -e 0'

const SIZES = (process.env.BENCH_LIST_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = 5
const LIBRARY = {team: 0.2, canonical: true, handEdited: 0.05}

async function rows(n) {
  const repo = await makeRepo()
  try {
    writeLibrary(repo.dir, n, 42, LIBRARY)
    repo.git('add', '-A', '.cairn')
    repo.git('commit', '-qm', 'library')
    const cold = () => fs.rmSync(path.join(repo.dir, '.cairn', '.cache', 'cards.json'), {force: true})
    let listed
    const verify = r => {
      const {cards} = JSON.parse(r.stdout).data
      if (cards.length !== n) throw new Error(`list gave ${cards.length} cards; expected ${n}`)
      listed ??= r.stdout
      if (r.stdout !== listed) throw new Error(`list of ${n} cards gave another answer than its first run`)
    }
    await mustSucceed(repo.cairn(['list', '--json']), `list ${n} cards`)
    const args = ['list', '--json']
    const extra = {cards: n}
    const variants = [
      {name: `node -e 0 (beside list ${n})`, argv: [process.execPath, '-e', '0'], extra},
      {name: `cairn --version (beside list ${n})`, args: ['--version'], extra},
    ]
    const builds = [['', undefined]]
    const baseline = baselineBin()
    if (baseline) builds.push([' (baseline)', baseline])
    for (const [tag, bin] of builds) {
      variants.push({name: `list ${n} active cards, cold${tag}`, args, bin, setup: cold, verify, extra})
      variants.push({name: `list ${n} active cards, warm${tag}`, args, bin, verify, extra})
    }
    const out = await interleaved(variants, {runs: RUNS, cwd: repo.dir, env: repo.env})
    log(`list ${n} active cards: the same list in every run`)
    return out
  } finally {
    repo.remove()
  }
}

export async function run() {
  const out = []
  for (const n of SIZES) out.push(...(await rows(n)))
  return out
}
