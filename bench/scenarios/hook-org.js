// hook-org (issue 36, the org layer at scale): a project of 1,000 cards subscribed to an org store of 10,000
// (BENCH_ORG_PROJECT, BENCH_ORG_CARDS), each the recall benchmark's library (bench/recall-cards.js, hook-scale's
// settings), the org's ids renamed so no id collides. The org store is a bare clone, subscribed with
// `cairn org add --no-commit` (the project's committed config is restored after). Then, as hook-scale does:
// the prompt hook as a whole process with a warm index, for a prompt that matches nothing and one of words
// hundreds of cards share, beside `node -e 0`: median CPU and wall over the floor's, peak RSS; the target is the
// 10,000-card one (3x the floor's CPU). Every common-prompt answer must come from the org layer or the project.
// Fixtures are cached in BENCH_FIXTURES like hook-scale's. BENCH_ORG_RUNS runs per row (7).
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {BIN, cachedFixture, costStats, log, mustCost, promptPayload, round} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'

export const description = 'issue 36: prompt hook with 1,000 project cards and 10,000 org cards, beside node -e 0'

const PROJECT = Number(process.env.BENCH_ORG_PROJECT ?? 1000)
const ORG = Number(process.env.BENCH_ORG_CARDS ?? 10000)
const RUNS = Number(process.env.BENCH_ORG_RUNS ?? 7)
const GENERATOR = 1
const LIBRARY = {team: 0.2, canonical: true, handEdited: 0.05}
const NO_MATCH = 'rename the quarterly vacation spreadsheet colours'
const COMMON = 'the deploy worker keeps hitting retry on the queue'
const TARGET_CPU = 3

/** The org's library with its generated ids renamed (bench-recall-card-N → bench-org-card-N), file names too. */
function writeOrgLibrary(dir, n) {
  writeLibrary(dir, n, 7, LIBRARY)
  const cards = path.join(dir, '.cairn', 'cards')
  for (const type of fs.readdirSync(cards))
    for (const name of fs.readdirSync(path.join(cards, type))) {
      if (!name.startsWith('bench-recall-card-')) continue
      const file = path.join(cards, type, name)
      const text = fs.readFileSync(file, 'utf8').replaceAll('bench-recall-card-', 'bench-org-card-')
      fs.rmSync(file)
      fs.writeFileSync(path.join(cards, type, name.replace('bench-recall-card-', 'bench-org-card-')), text)
    }
  return {n}
}

const additional = r => (r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? '') : '')

export async function run() {
  const org = await cachedFixture(`hook-org-org-g${GENERATOR}-${ORG}`, GENERATOR, repo =>
    writeOrgLibrary(repo.dir, ORG),
  )
  const project = await cachedFixture(`hook-org-project-g${GENERATOR}-${PROJECT}`, GENERATOR, repo => {
    writeLibrary(repo.dir, PROJECT, 42, LIBRARY)
    return {n: PROJECT}
  })
  const bare = path.join(path.dirname(org.dir), 'org.git')
  fs.rmSync(bare, {recursive: true, force: true})
  execFileSync('git', ['clone', '-q', '--bare', org.dir, bare], {env: org.env})
  const {dir: cwd, env} = project
  const node = process.execPath
  const rows = []
  try {
    await mustCost([node, BIN, 'org', 'add', bare, '--name', 'bench-org', '--no-commit'], {cwd, env}, 'cairn org add')
    const build = await mustCost([node, BIN, 'recall', NO_MATCH], {cwd, env}, 'index build')
    rows.push({name: `index build, ${PROJECT} project + ${ORG} org cards (cold)`, ...costStats([build])})
    const hook = (prompt, session) => [
      [node, BIN, 'hook', 'user-prompt-submit', '--agent', 'claude'],
      {cwd, env, input: promptPayload(cwd, session, prompt)},
    ]
    for (let i = 0; i < 2; i++) for (const p of [NO_MATCH, COMMON]) await mustCost(...hook(p, `warm-${i}`), 'warm-up')
    const runs = {floor: [], none: [], common: []}
    let orgCards = 0
    for (let i = 0; i < RUNS; i++) {
      runs.floor.push(await mustCost([node, '-e', '0'], {cwd, env}, 'node -e 0'))
      for (const key of i % 2 ? ['common', 'none'] : ['none', 'common']) {
        const r = await mustCost(...hook(key === 'none' ? NO_MATCH : COMMON, `org-${key}-${i}`), `hook (${key})`)
        if (key === 'none' && r.stdout !== '') throw new Error(`the no-match prompt printed: ${r.stdout.slice(0, 300)}`)
        if (key === 'common') {
          const text = additional(r)
          if (!text) throw new Error(`the common prompt injected nothing: ${r.stdout.slice(0, 300)}`)
          orgCards += (text.match(/\(bench-org-card-/g) ?? []).length
        }
        runs[key].push(r)
      }
      log(
        `hook-org: run ${i + 1}/${RUNS}: cpu ms floor ${runs.floor[i].cpu_ms.toFixed(0)}, none ${runs.none[i].cpu_ms.toFixed(0)}, common ${runs.common[i].cpu_ms.toFixed(0)}`,
      )
    }
    if (orgCards === 0) throw new Error('no common-prompt answer held an org card: the org layer was not read')
    const floor = costStats(runs.floor)
    rows.push({name: 'node -e 0 (beside the prompts)', ...floor})
    for (const [key, label] of [
      ['none', 'prompt hook, matches nothing'],
      ['common', 'prompt hook, common words'],
    ]) {
      const s = costStats(runs[key])
      const cpu_ratio = round(s.cpu_ms / floor.cpu_ms, 2)
      rows.push({
        name: `${label}, ${PROJECT} project + ${ORG} org cards`,
        ...s,
        cpu_ratio,
        wall_ratio: round(s.median_ms / floor.median_ms, 2),
        target: `${TARGET_CPU}x the floor's CPU`,
        met: cpu_ratio <= TARGET_CPU,
      })
    }
  } finally {
    execFileSync('git', ['checkout', '-q', '--', '.cairn/config.yaml'], {cwd, env})
  }
  return rows
}
