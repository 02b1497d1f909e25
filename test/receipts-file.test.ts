import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {asReceipt, type Receipt, receiptLine} from '../src/domain/receipts.js'
import {projectStoreAt} from '../src/store/layout.js'
import {tryAcquire} from '../src/store/locks/lock-file.js'
import {appendReceipt, readReceipts, ROTATE_RECEIPTS_AT, rotateReceipts} from '../src/store/agents/receipts.js'
import {lineWorker, ROOT, tempDir} from './helpers.js'

const WORKER = path.join(ROOT, 'test', 'receipt-worker.mjs')

function storeDir() {
  const root = tempDir()
  fs.mkdirSync(path.join(root, '.cairn', '.local'), {recursive: true})
  const local = path.join(root, '.cairn', '.local')
  return {root, store: projectStoreAt(root), local, file: (name: string) => path.join(local, name)}
}

const receipt = (session: string, n: number, over: Partial<Receipt> = {}): Receipt => ({
  ts: '2026-11-29T10:00:00Z',
  session,
  client: 'claude',
  event: 'user-prompt-submit',
  cards: [{id: 'flaky-login-test', why: 'trigger "flaky login test"', chars: n}],
  chars: n,
  ...over,
})

/** Lines of receipts of session `session`, numbered from 0, filling `bytes` or just under. */
function filler(session: string, bytes: number): {text: string; count: number} {
  const out: string[] = []
  let size = 0
  for (let n = 0; ; n++) {
    const line = receiptLine(receipt(session, n))
    if (size + line.length > bytes) return {text: out.join(''), count: n}
    out.push(line)
    size += line.length
  }
}

const parsed = (file: string): unknown[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l))

describe('the receipts file', () => {
  it('one line per receipt; a line too long drops cards from the end and counts them', () => {
    const {store, file} = storeDir()
    appendReceipt(store, receiptLine(receipt('s1', 1)))
    appendReceipt(store, receiptLine(receipt('s1', 2)))
    expect(fs.readFileSync(file('receipts.jsonl'), 'utf8')).toBe(
      `${JSON.stringify(receipt('s1', 1))}\n${JSON.stringify(receipt('s1', 2))}\n`,
    )
    const many = Array.from({length: 200}, (_, i) => ({id: `catalog-card-number-${i}`, why: 'catalog', chars: 60}))
    const line = receiptLine(receipt('s1', 12_000, {event: 'session-start', cards: many}))
    expect(Buffer.byteLength(line)).toBeLessThan(4096)
    const back = asReceipt(JSON.parse(line))!
    expect(back.cards).toEqual(many.slice(0, back.cards.length))
    expect(back.cards.length).toBeGreaterThan(50)
    expect(back.more).toBe(200 - back.cards.length)
    expect(readReceipts(store)).toEqual([receipt('s1', 1), receipt('s1', 2)])
  })

  it('rotates past 1 MB, keeps two older generations, and reads them all, oldest first', () => {
    const {store, file} = storeDir()
    const gen = (g: string) => {
      const fill = filler(g, ROTATE_RECEIPTS_AT - 10)
      fs.writeFileSync(file('receipts.jsonl'), fill.text)
      appendReceipt(store, receiptLine(receipt(g, fill.count)))
      return fill.count + 1
    }
    const first = gen('first')
    expect(fs.existsSync(file('receipts.jsonl'))).toBe(false)
    expect(parsed(file('receipts.1.jsonl'))).toHaveLength(first)
    const second = gen('second')
    const third = gen('third')
    appendReceipt(store, receiptLine(receipt('now', 0)))
    expect(fs.readdirSync(path.dirname(file('x'))).sort()).toEqual([
      'receipts.1.jsonl',
      'receipts.2.jsonl',
      'receipts.jsonl',
    ])
    const all = readReceipts(store)
    expect(all.map(r => r.session).filter((s, i, a) => a[i - 1] !== s)).toEqual(['second', 'third', 'now'])
    expect(all).toHaveLength(second + third + 1)
    expect(all.filter(r => r.session === 'third').map(r => r.chars)).toEqual(Array.from({length: third}, (_, i) => i))
  })

  it('two hooks that both saw the file past its size rotate it once: the second finds it small', () => {
    const {store, file, local} = storeDir()
    const fill = filler('big', ROTATE_RECEIPTS_AT + 100)
    fs.writeFileSync(file('receipts.jsonl'), fill.text)
    expect(rotateReceipts(store)).toBe(true)
    appendReceipt(store, receiptLine(receipt('new', 0)))
    expect(rotateReceipts(store)).toBe(false)
    expect(fs.readdirSync(local).sort()).toEqual(['receipts.1.jsonl', 'receipts.jsonl'])
    expect(readReceipts(store)).toHaveLength(fill.count + 1)
  })

  it('a rotation lock held by a live hook is waited out by appending on; a dead holder’s lock is taken over', () => {
    const {store, file, local} = storeDir()
    const fill = filler('big', ROTATE_RECEIPTS_AT + 100)
    fs.writeFileSync(file('receipts.jsonl'), fill.text)
    const held = tryAcquire({dir: local, name: 'receipts.jsonl.rotating', staleness: {uncheckedMaxAgeMs: 30_000}})!
    appendReceipt(store, receiptLine(receipt('big', fill.count)))
    expect(fs.existsSync(file('receipts.1.jsonl'))).toBe(false)
    expect(parsed(file('receipts.jsonl'))).toHaveLength(fill.count + 1)
    held.release()
    // A hook killed while rotating leaves its lock behind, naming a process that is gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'})
    fs.writeFileSync(
      file('receipts.jsonl.rotating'),
      JSON.stringify({pid: Number(dead.stdout), host: os.hostname(), at: new Date().toISOString()}),
    )
    appendReceipt(store, receiptLine(receipt('big', fill.count + 1)))
    expect(parsed(file('receipts.1.jsonl'))).toHaveLength(fill.count + 2)
    expect(fs.readdirSync(local).sort()).toEqual(['receipts.1.jsonl'])
  })

  it('a torn last line (a writer killed mid-line) is skipped on read, and the next receipt starts a line of its own', () => {
    const {store, file} = storeDir()
    appendReceipt(store, receiptLine(receipt('s1', 1)))
    const whole = receiptLine(receipt('s1', 2))
    fs.appendFileSync(file('receipts.jsonl'), whole.slice(0, 40))
    expect(readReceipts(store)).toEqual([receipt('s1', 1)])
    appendReceipt(store, receiptLine(receipt('s1', 3)))
    expect(readReceipts(store)).toEqual([receipt('s1', 1), receipt('s1', 3)])
    expect(fs.readFileSync(file('receipts.jsonl'), 'utf8').split('\n')).toEqual([
      JSON.stringify(receipt('s1', 1)),
      whole.slice(0, 40),
      JSON.stringify(receipt('s1', 3)),
      '',
    ])
  })

  it('writers in several processes, through a rotation: no line lost, none torn', async () => {
    const {root, store, file} = storeDir()
    // Just under the size: the first appends rotate the file while the others write.
    const fill = filler('fill', ROTATE_RECEIPTS_AT - 2000)
    fs.writeFileSync(file('receipts.jsonl'), fill.text)
    const go = path.join(root, 'go')
    const COUNT = 600
    const workers = ['w1', 'w2', 'w3', 'w4'].map(w => lineWorker(WORKER, [root, w, String(COUNT), go]))
    for (const w of workers) expect(await w.line()).toBe('ready')
    fs.writeFileSync(go, '')
    expect(await Promise.all(workers.map(w => w.exited))).toEqual([0, 0, 0, 0])
    expect(fs.existsSync(file('receipts.1.jsonl'))).toBe(true)
    expect(fs.existsSync(file('receipts.2.jsonl'))).toBe(false)
    for (const name of ['receipts.1.jsonl', 'receipts.jsonl']) {
      const text = fs.readFileSync(file(name), 'utf8')
      expect(text.endsWith('\n')).toBe(true)
      for (const l of text.split('\n').filter(Boolean)) expect(asReceipt(JSON.parse(l))).not.toBeNull()
    }
    const all = readReceipts(store)
    expect(all).toHaveLength(fill.count + 4 * COUNT)
    for (const w of ['w1', 'w2', 'w3', 'w4']) {
      const mine = all.filter(r => r.session === w).map(r => r.chars)
      expect(mine.sort((a, b) => a - b)).toEqual(Array.from({length: COUNT}, (_, i) => i))
    }
  }, 120_000)

  it('a writer killed with SIGKILL while appending leaves only whole lines; the next hook appends as before', async () => {
    const {root, store, file} = storeDir()
    const go = path.join(root, 'go')
    fs.writeFileSync(go, '')
    const w = lineWorker(WORKER, [root, 'w1', '0', go])
    expect(await w.line()).toBe('ready')
    expect(await w.line()).toBe('going')
    w.child.kill('SIGKILL')
    expect(await w.exited).toBeNull()
    appendReceipt(store, receiptLine(receipt('after', 7)))
    const all = readReceipts(store)
    expect(all.at(-1)).toEqual(receipt('after', 7))
    const theirs = all.filter(r => r.session === 'w1').map(r => r.chars)
    expect(theirs.length).toBeGreaterThan(100)
    expect(theirs).toEqual(Array.from({length: theirs.length}, (_, i) => i))
    const raw = fs.readFileSync(file('receipts.jsonl'), 'utf8').split('\n').filter(Boolean)
    expect(raw.length).toBe(all.length)
  }, 60_000)
})
