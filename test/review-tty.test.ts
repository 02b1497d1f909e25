import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {BIN, card, type Repo, templateRepo} from './helpers.js'

/**
 * The interactive review through a real pseudo-terminal: util-linux `script` gives the CLI a TTY on
 * stdin and stdout, and each key is typed once the question it answers is on the screen.
 */

const CARDS = [
  card({
    slug: 'browser-validation-user-path',
    type: 'guideline',
    title: 'Check the user path in a browser',
    summary: 'When a UI change affects the user path, check it in a real browser.',
  }),
  card(),
  card({
    slug: 'quote-shell-variables-always',
    title: 'Quote shell variables',
    summary: 'Unquoted variables split on spaces.',
  }),
]
const three = templateRepo(async repo => {
  await init(repo.ctx())
  for (const fields of CARDS) await propose(repo.ctx(), {fields})
})

/** [text to wait for on the screen, keys to type then] */
type Step = [string, string]

function pty(repo: Repo, args: string[], steps: Step[], cols = 200): Promise<{code: number | null; screen: string}> {
  // A wide terminal by default, so no answer is wrapped on the screen the test reads.
  const command = `stty cols ${cols} rows 50 && exec ${[process.execPath, BIN, ...args].map(a => `'${a}'`).join(' ')}`
  const child = spawn('script', ['-qfec', command, '/dev/null'], {cwd: repo.dir, env: {...repo.env, TERM: 'xterm'}})
  let screen = ''
  let seen = 0
  const pending = [...steps]
  // The escape codes of colour and cursor moves are left out, so the test can look for plain text.
  const plain = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
  child.stdout.on('data', chunk => {
    screen += chunk.toString('utf8')
    const [wanted, keys] = pending[0] ?? []
    if (wanted === undefined) return
    const at = plain(screen).indexOf(wanted, seen)
    if (at < 0) return
    seen = at + wanted.length
    pending.shift()
    // A short pause, as a person's: keys typed before a prompt opens are dropped by the prompt library.
    setTimeout(() => child.stdin.write(keys!), 150)
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill()
      reject(new Error(`no "${pending[0]?.[0]}" on the screen:\n${plain(screen)}`))
    }, 40_000)
    child.on('close', code => {
      clearTimeout(timer)
      if (pending.length) reject(new Error(`exited before "${pending[0][0]}":\n${plain(screen)}`))
      else resolve({code, screen: plain(screen)})
    })
  })
}

const exists = (repo: Repo, rel: string) => fs.existsSync(path.join(repo.dir, rel))

/** The keys that approve the first card and start rejecting the second (its reason asked for next). */
const APPROVE_THEN_REJECT: Step[] = [
  ['C1/3 browser-validation-user-path: [a]pprove', 'a'],
  ['>> approve', '\r'],
  ['C2/3 deepmerge-array-replace-trap: [a]pprove', 'r'],
  ['>> reject', '\r'],
]

describe('cairn review on a terminal', () => {
  it('approve one card, reject one with a reason, quit: two commits, as approve and reject make them', async () => {
    const repo = await three()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {code, screen} = await pty(
      repo,
      ['review'],
      [
        ...APPROVE_THEN_REJECT,
        ['Reason for rejecting (it goes into the commit message):', 'covered by config-merge-rules'],
        ['config-merge-rules', '\r'],
        ['C3/3 quote-shell-variables-always: [a]pprove', 'q'],
        ['>> quit', '\r'],
      ],
    )
    expect(code).toBe(0)
    expect(repo.git('log', '--format=%s%n%b', `${head}..HEAD`).trim().split('\n').filter(Boolean)).toEqual([
      'cairn(reject): deepmerge-array-replace-trap',
      'Reason: covered by config-merge-rules',
      'Cairn-Op: reject',
      'Cairn-Card: deepmerge-array-replace-trap',
      'Cairn-Actor: tester',
      'Cairn-Format: 1',
      'cairn(approve): browser-validation-user-path',
      'Cairn-Op: approve',
      'Cairn-Card: browser-validation-user-path',
      'Cairn-Actor: tester',
      'Cairn-Format: 1',
    ])
    expect(repo.git('show', '--name-status', '--format=', 'HEAD~1').trim()).toMatch(
      /^R\d+\t\.cairn\/pending\/guideline\/browser-validation-user-path\.md\t\.cairn\/cards\/guideline\/browser-validation-user-path\.md$/,
    )
    expect(repo.git('show', '--name-status', '--format=', 'HEAD').trim()).toBe(
      'D\t.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
    )
    expect(exists(repo, '.cairn/pending/pitfall/quote-shell-variables-always.md')).toBe(true)
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(screen).toContain(
      'Approved 1, rejected 1, deferred 0, modified 0, skipped 0.\r\n' +
        '1 card left for later: run "cairn review" again to decide it.\r\n',
    )
    expect(screen).not.toContain('Confirm?')
  }, 60_000)

  it('Ctrl-D in the middle of a decision quits with exit 0 and writes nothing', async () => {
    const repo = await three()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {code, screen} = await pty(
      repo,
      ['review', 'list'],
      [
        ['C1/3 browser-validation-user-path: [a]pprove', 'r'],
        ['>> reject', '\r'],
        ['Reason for rejecting', '\x04'],
      ],
    )
    expect(code).toBe(0)
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(screen).toContain(
      'Approved 0, rejected 0, deferred 0, modified 0, skipped 0.\r\n' +
        '3 cards left for later: run "cairn review" again to decide them.\r\n',
    )
  }, 60_000)

  it('Ctrl-C exits 130: the decision already made stays committed, the one being asked writes nothing', async () => {
    const repo = await three()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {code, screen} = await pty(repo, ['review'], [...APPROVE_THEN_REJECT, ['Reason for rejecting', '\x03']])
    expect(code).toBe(130)
    expect(repo.git('log', '--format=%s', `${head}..HEAD`).trim()).toBe('cairn(approve): browser-validation-user-path')
    expect(exists(repo, '.cairn/pending/pitfall/deepmerge-array-replace-trap.md')).toBe(true)
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(fs.existsSync(path.join(repo.dir, '.git/cairn.lock'))).toBe(false)
    expect(screen).toContain('Approved 1, rejected 0, deferred 0, modified 0, skipped 0.\r\n')
  }, 60_000)

  it('on a narrow terminal the card is folded to its width; a list field is asked for as comma-separated', async () => {
    const repo = await three()
    const {code, screen} = await pty(
      repo,
      ['review'],
      [
        ['[q]uit', 'm'],
        ['>> modify', '\r'],
        // Down to the eighth field, triggers, once the whole list is on the screen.
        ['  risk', '\x1b[B'.repeat(7) + '\r'],
        ['New value of triggers, comma-separated', 'user path,real browser\r'],
        ['Modified browser-validation-user-path', ''],
        ['[q]uit', 'q'],
        ['>> quit', '\r'],
      ],
      60,
    )
    expect(code).toBe(0)
    const card = screen.slice(screen.indexOf('C1 [type='), screen.indexOf('? C1/3'))
    const lines = card.split('\r\n')
    expect(lines.length).toBeGreaterThan(12)
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(60)
    // The question is folded at a space, its second line under its text.
    expect(screen).toContain(
      '? C1/3 browser-validation-user-path: [a]pprove [r]eject\r\n  [m]odify [d]efer [s]kip [q]uit — type a key, then Enter:',
    )
    // The layer sentence, 190 characters, is folded at spaces into lines that each fit.
    expect(card).toContain('Layer reasoning: team — the default: the card was proposed\r\ninto the project store,')
    expect(parseTriggers(repo)).toEqual(['user path', 'real browser'])
  }, 60_000)
})

const parseTriggers = (repo: Repo) =>
  /\n {2}triggers: \[(.*)\]\n/
    .exec(repo.read('.cairn/pending/guideline/browser-validation-user-path.md'))![1]
    .split(', ')
