import type {ChildProcessWithoutNullStreams} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {CairnError} from '../src/domain/errors.js'
import {acquireLock, inspectLock, lockHolder, UNCHECKED_MAX_AGE_MS} from '../src/store/locks/lock.js'
import {lineWorker, ROOT, tempRepo} from './helpers.js'

// Children use the built lock (dist/), like the CLI tests: run `npm run build` first.
const WORKER = path.join(ROOT, 'test', 'lock-worker.mjs')
const HAS_PROC = fs.existsSync('/proc/1/stat') && fs.existsSync('/proc/sys/kernel/random/boot_id')
const DEAD_PID = 2 ** 22 + 12_345 // above Linux's largest pid_max

const startOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19]
const bootId = () => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
const token = () => randomBytes(8).toString('hex')

const children: ChildProcessWithoutNullStreams[] = []
afterEach(() => {
  while (children.length) children.pop()!.kill('SIGKILL')
})

function worker(args: string[]): {
  child: ChildProcessWithoutNullStreams
  line: () => Promise<string>
  exited: Promise<number | null>
} {
  const w = lineWorker(WORKER, args)
  children.push(w.child)
  return w
}

function setup() {
  const repo = tempRepo()
  const file = path.join(repo.dir, '.git', 'cairn.lock')
  const write = (record: unknown, ageMs = 0) => {
    fs.writeFileSync(file, typeof record === 'string' ? record : JSON.stringify(record))
    const when = new Date(Date.now() - ageMs)
    fs.utimesSync(file, when, when)
  }
  const siblings = () =>
    fs
      .readdirSync(path.dirname(file))
      .filter(n => n.startsWith('cairn.lock'))
      .sort()
  return {root: repo.dir, file, write, siblings}
}

async function conflict(pending: Promise<unknown>): Promise<CairnError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CairnError)
  expect((error as CairnError).code).toBe('conflict')
  return error as CairnError
}

const OLD = UNCHECKED_MAX_AGE_MS + 60_000

describe.runIf(HAS_PROC)('stale locks', () => {
  it('takes over at once a lock naming pid 1 with another start time (a reused pid)', async () => {
    const {root, file, write, siblings} = setup()
    write({
      pid: 1,
      host: os.hostname(),
      start: String(Number(startOf(1)) + 1),
      boot: bootId(),
      at: '2020-01-01T00:00:00Z',
      token: token(),
    })
    expect(inspectLock(file)).toMatchObject({state: 'stale', reason: 'pid 1 now belongs to another process'})
    expect(lockHolder(file)).toBeUndefined()
    // waitMs 0: any wait for the old lock would fail the acquire.
    const lock = await acquireLock(root, {waitMs: 0})
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: os.hostname(),
      start: startOf(process.pid),
      boot: bootId(),
    })
    expect(lockHolder(file)).toMatchObject({pid: process.pid})
    expect(siblings()).toEqual(['cairn.lock'])
    lock.release()
    expect(siblings()).toEqual([])
  })

  it('judges a lock from before a reboot, or from a dead process, stale', () => {
    const {file, write} = setup()
    write({pid: process.pid, host: os.hostname(), start: startOf(process.pid), boot: 'another-boot', token: token()})
    expect(inspectLock(file)).toEqual(
      expect.objectContaining({state: 'stale', reason: 'the machine has restarted since it was taken'}),
    )
    write({pid: DEAD_PID, host: os.hostname(), start: '5', boot: bootId(), token: token()})
    expect(inspectLock(file)).toEqual(
      expect.objectContaining({state: 'stale', reason: `its process (pid ${DEAD_PID}) is gone`}),
    )
  })

  it('respects a fresh lock from another host, and takes over one older than the maximum age', async () => {
    const {root, file, write} = setup()
    const record = {pid: 1, host: 'old-container-7f3a', at: '2026-01-01T00:00:00Z', token: token()}
    write(record, 60_000)
    expect(inspectLock(file)).toEqual({state: 'held', holder: record})
    const error = await conflict(acquireLock(root, {waitMs: 150}))
    expect(error.message).toContain(
      'Another cairn process, pid 1 on old-container-7f3a, since 2026-01-01T00:00:00Z, holds',
    )
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(record)

    write(record, OLD)
    expect(inspectLock(file)).toMatchObject({
      state: 'stale',
      reason: 'it was taken on host old-container-7f3a more than 10 minutes ago',
    })
    const lock = await acquireLock(root, {waitMs: 0})
    expect(lockHolder(file)).toMatchObject({pid: process.pid})
    lock.release()
  })

  it('without a start time to compare, a live pid holds the lock until the maximum age', () => {
    const {file, write} = setup()
    write({pid: process.pid, host: os.hostname()}, 60_000)
    expect(inspectLock(file)).toMatchObject({state: 'held', holder: {pid: process.pid}})
    write({pid: process.pid, host: os.hostname()}, OLD)
    expect(inspectLock(file)).toMatchObject({
      state: 'stale',
      reason: `pid ${process.pid} cannot be checked and the lock is more than 10 minutes old`,
    })
  })

  it('treats an unreadable lock as held for a few seconds, then as stale', () => {
    const {file, write} = setup()
    write('{"pid": 12', 1_000)
    expect(inspectLock(file)).toEqual({state: 'held', holder: {pid: -1, host: 'unknown'}})
    write('{"pid": 12', 11_000)
    expect(inspectLock(file)).toEqual({state: 'stale', holder: undefined, reason: 'it holds no readable lock record'})
  })

  it('never takes over a live holder on this host, however old its lock', async () => {
    const {root, file, siblings} = setup()
    const holder = worker(['hold', root])
    expect(await holder.line()).toBe('held')
    const old = new Date(Date.now() - 3_600_000)
    fs.utimesSync(file, old, old)
    expect(lockHolder(file)).toMatchObject({pid: holder.child.pid, start: startOf(holder.child.pid!)})
    await conflict(acquireLock(root, {waitMs: 300}))
    expect(lockHolder(file)).toMatchObject({pid: holder.child.pid})
    holder.child.stdin.end()
    expect(await holder.exited).toBe(0)
    expect(siblings()).toEqual([])
    const lock = await acquireLock(root, {waitMs: 0})
    lock.release()
  })

  it('backs off while another live process is taking over the same stale lock, and ignores a dead one', async () => {
    const {root, file, write, siblings} = setup()
    const stale = token()
    write({pid: DEAD_PID, host: os.hostname(), token: stale})
    const claim = (name: string, record: unknown) =>
      fs.writeFileSync(path.join(path.dirname(file), `cairn.lock.claim-${stale}-${name}`), JSON.stringify(record))
    claim('dead', {pid: DEAD_PID, host: os.hostname(), token: token()})
    claim('live', {pid: process.pid, host: os.hostname(), start: startOf(process.pid), boot: bootId(), token: token()})
    const error = await conflict(acquireLock(root, {waitMs: 0}))
    expect(error.message).toContain(
      `is stale, its process (pid ${DEAD_PID}) is gone, but other cairn processes kept taking it over`,
    )
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).token).toBe(stale)

    fs.rmSync(path.join(path.dirname(file), `cairn.lock.claim-${stale}-live`))
    const lock = await acquireLock(root, {waitMs: 0})
    expect(siblings()).toEqual(['cairn.lock'])
    lock.release()
  })

  it('release leaves alone a lock that is no longer ours', async () => {
    const {root, file, write} = setup()
    const lock = await acquireLock(root, {waitMs: 0})
    const other = {pid: 1, host: 'elsewhere', token: token()}
    write(other)
    lock.release()
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(other)
  })

  it('eight processes fighting over stale locks hold the lock one at a time', async () => {
    const {root, file} = setup()
    const dir = path.dirname(path.dirname(file))
    const log = path.join(dir, 'holders.log')
    const go = path.join(dir, 'go')
    const rounds = 4
    fs.writeFileSync(log, '')
    fs.writeFileSync(
      file,
      JSON.stringify({
        pid: 1,
        host: os.hostname(),
        start: String(Number(startOf(1)) + 1),
        boot: bootId(),
        token: token(),
      }),
    )
    const fighters = Array.from({length: 8}, () => worker(['fight', root, log, String(rounds), go]))
    for (const f of fighters) expect(await f.line()).toBe('ready')
    fs.writeFileSync(go, '')
    expect(await Promise.all(fighters.map(f => f.exited))).toEqual(Array(8).fill(0))

    const lines = fs.readFileSync(log, 'utf8').trim().split('\n')
    expect(lines).toHaveLength(8 * rounds * 2)
    for (let i = 0; i < lines.length; i += 2) {
      const pid = lines[i].split(' ')[1]
      expect([lines[i], lines[i + 1]]).toEqual([`enter ${pid}`, `exit ${pid}`])
    }
    const perPid = new Map<string, number>()
    for (const l of lines) if (l.startsWith('enter')) perPid.set(l, (perPid.get(l) ?? 0) + 1)
    expect([...perPid.values()]).toEqual(Array(8).fill(rounds))
    // Every takeover cleaned up after itself: only the last stale lock is left.
    expect(fs.readdirSync(path.dirname(file)).filter(n => n.startsWith('cairn.lock'))).toEqual(['cairn.lock'])
  })
})
