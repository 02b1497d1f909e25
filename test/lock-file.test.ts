import type {ChildProcessWithoutNullStreams} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {
  heldByToken,
  inspectLockFile,
  type LockSpec,
  releaseLockByToken,
  tryAcquire,
} from '../src/store/locks/lock-file.js'
import {lineWorker, ROOT, tempDir} from './helpers.js'

/**
 * The lock primitive (src/store/locks/lock-file.ts) on the paths the writers' lock does not take (test/lock.test.ts
 * has those): the try-lock, the handover to a spawned process, the release by token from another process, the
 * age past which even a live holder is taken over, and a link at the lock's name. Children use dist/: run
 * `npm run build` first.
 */
const WORKER = path.join(ROOT, 'test', 'lock-file-worker.mjs')
const HAS_PROC = fs.existsSync('/proc/1/stat') && fs.existsSync('/proc/sys/kernel/random/boot_id')
const DEAD_PID = 2 ** 22 + 12_345 // above Linux's largest pid_max
const NAME = 'thing.lock'
/** The recall index lock's rules, as test/lock-file-worker.mjs has them. */
const RULES = {uncheckedMaxAgeMs: 600_000, liveMaxAgeMs: 600_000}

const startOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19]
const bootId = () => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
const token = () => randomBytes(8).toString('hex')

const children: ChildProcessWithoutNullStreams[] = []
afterEach(() => {
  while (children.length) children.pop()!.kill('SIGKILL')
})

function worker(args: string[]) {
  const w = lineWorker(WORKER, args)
  children.push(w.child)
  return w
}

function setup(staleness = RULES) {
  const dir = tempDir()
  const spec: LockSpec = {dir, name: NAME, staleness, atInMs: true}
  const file = path.join(dir, NAME)
  const record = () => JSON.parse(fs.readFileSync(file, 'utf8'))
  const write = (r: unknown, mtimeAgeMs = 0) => {
    fs.writeFileSync(file, JSON.stringify(r))
    const when = new Date(Date.now() - mtimeAgeMs)
    fs.utimesSync(file, when, when)
  }
  const names = () => fs.readdirSync(dir).sort()
  return {dir, spec, file, record, write, names}
}

describe.runIf(HAS_PROC)('the lock primitive', () => {
  it('tryAcquire takes a free lock at once, whole, and gives null while a live holder has it', () => {
    const {spec, record, names} = setup()
    const before = Date.now()
    const lock = tryAcquire(spec)!
    expect(lock).not.toBeNull()
    const r = record()
    expect(r).toEqual({
      pid: process.pid,
      host: os.hostname(),
      start: startOf(process.pid),
      boot: bootId(),
      at: expect.any(Number),
      token: lock.token,
    })
    expect(r.at).toBeGreaterThanOrEqual(before)
    expect(names()).toEqual([NAME])
    expect(inspectLockFile(spec)).toEqual({state: 'held', holder: r})
    expect(tryAcquire(spec)).toBeNull()
    // The failed try wrote nothing beside it.
    expect(names()).toEqual([NAME])
    lock.release()
    expect(names()).toEqual([])
    expect(inspectLockFile(spec)).toEqual({state: 'free'})
  })

  it('hands the lock over to a spawned process, which releases it by token from there', async () => {
    const {spec, record, names} = setup()
    const lock = tryAcquire(spec)!
    const taken = record()
    const w = worker(['worker', spec.dir, NAME, lock.token])
    expect(await w.line()).toBe('started')
    const pid = w.child.pid!
    expect(lock.handOver(pid)).toBe(true)
    // Only the process changes: the token, the time it was taken and the host stay.
    expect(record()).toEqual({...taken, pid, start: startOf(pid)})
    expect(inspectLockFile(spec)).toMatchObject({state: 'held', holder: {pid}})
    expect(tryAcquire(spec)).toBeNull()
    expect([heldByToken(spec, lock.token), heldByToken(spec, token())]).toEqual([true, false])
    expect(releaseLockByToken(spec, token())).toBe(false)
    w.child.stdin.end()
    expect(await w.line()).toBe('true')
    expect(await w.exited).toBe(0)
    expect(names()).toEqual([])
    // Released already: a late handover writes nothing, anywhere.
    expect(lock.handOver(pid)).toBe(false)
    expect(names()).toEqual([])
  })

  it('a holder killed with SIGKILL after the handover: its lock is stale at once and taken over; its token frees nothing after', async () => {
    const {spec, file, record, names} = setup()
    const lock = tryAcquire(spec)!
    const w = worker(['worker', spec.dir, NAME, lock.token])
    expect(await w.line()).toBe('started')
    const pid = w.child.pid!
    expect(lock.handOver(pid)).toBe(true)
    w.child.kill('SIGKILL')
    await w.exited
    expect(inspectLockFile(spec)).toMatchObject({
      state: 'stale',
      holder: {pid},
      reason: `its process (pid ${pid}) is gone`,
    })
    const next = tryAcquire(spec)!
    expect(next).not.toBeNull()
    expect(record()).toMatchObject({pid: process.pid, token: next.token})
    // The takeover left no claim or temp file behind.
    expect(names()).toEqual([NAME])
    // Neither the killed holder's token nor the first holder's release touches the new lock.
    expect(releaseLockByToken(spec, lock.token)).toBe(false)
    lock.release()
    expect(lock.handOver(process.pid)).toBe(false)
    expect(record()).toMatchObject({pid: process.pid, token: next.token})
    next.release()
    expect(fs.existsSync(file)).toBe(false)
  })

  it('a handover to a shorter record pads it: one write, and no byte of the old record left behind', () => {
    const {spec, file, record} = setup()
    const lock = tryAcquire(spec)!
    const size = fs.statSync(file).size
    expect(lock.handOver(1)).toBe(true)
    expect(fs.statSync(file).size).toBe(size)
    expect(record()).toMatchObject({pid: 1, start: startOf(1), token: lock.token})
    expect(inspectLockFile(spec)).toMatchObject({state: 'held', holder: {pid: 1}})
    lock.release()
  })

  it("takes over a live holder past liveMaxAgeMs, counted from the record's `at` in ms or else the mtime; never without it", () => {
    const {spec, write} = setup({uncheckedMaxAgeMs: 600_000, liveMaxAgeMs: 120_000})
    const live = {pid: process.pid, host: os.hostname(), start: startOf(process.pid), boot: bootId(), token: token()}
    write({...live, at: Date.now() - 60_000})
    expect(inspectLockFile(spec).state).toBe('held')
    write({...live, at: Date.now() - 180_000})
    const reason = `its process (pid ${process.pid}) has held it for more than 2 minutes`
    expect(inspectLockFile(spec)).toMatchObject({state: 'stale', reason})
    expect(inspectLockFile({...spec, staleness: {uncheckedMaxAgeMs: 600_000}}).state).toBe('held')
    // `at` as text is for people: the age is the file's mtime.
    write({...live, at: '2020-01-01T00:00:00Z'}, 60_000)
    expect(inspectLockFile(spec).state).toBe('held')
    write({...live, at: '2020-01-01T00:00:00Z'}, 180_000)
    expect(inspectLockFile(spec)).toMatchObject({state: 'stale', reason})
    // A fresh `at` in ms counts, however old the file.
    write({...live, at: Date.now()}, 180_000)
    expect(inspectLockFile(spec).state).toBe('held')
    // A lock written by an older cairn (no start time, a token that is no hex) is judged by its pid and `at` alone.
    write({token: 'planted', pid: DEAD_PID, at: Date.now()})
    expect(inspectLockFile(spec)).toMatchObject({state: 'stale', reason: `its process (pid ${DEAD_PID}) is gone`})
    const lock = tryAcquire(spec)!
    expect(lock).not.toBeNull()
    lock.release()
  })

  it("a link at the lock's name is no lock: never read or written through, and replaced by the next try", () => {
    const {spec, file, record, names} = setup()
    const victim = path.join(tempDir(), 'victim')
    fs.writeFileSync(
      victim,
      JSON.stringify({
        pid: process.pid,
        host: os.hostname(),
        start: startOf(process.pid),
        boot: bootId(),
        token: token(),
      }),
    )
    const before = fs.readFileSync(victim, 'utf8')
    for (const target of [victim, '/dev/zero']) {
      fs.rmSync(file, {force: true})
      fs.symlinkSync(target, file)
      expect(inspectLockFile(spec)).toMatchObject({state: 'stale', reason: 'it is a link or no regular file'})
      expect(heldByToken(spec, JSON.parse(before).token)).toBe(false)
      const lock = tryAcquire(spec)!
      expect(lock).not.toBeNull()
      expect(fs.lstatSync(file).isFile()).toBe(true)
      expect(record().token).toBe(lock.token)
      expect(names()).toEqual([NAME])
      lock.release()
    }
    expect(fs.readFileSync(victim, 'utf8')).toBe(before)
  })

  it('processes trying at once: one gets a free lock; at most one a stale lock, and nothing is left behind', async () => {
    const {spec, dir, write, names} = setup()
    for (const stale of [false, true]) {
      if (stale) write({pid: DEAD_PID, host: os.hostname(), at: Date.now(), token: token()})
      const go = path.join(tempDir(), 'go')
      const tries = Array.from({length: 6}, () => worker(['try', dir, NAME, go]))
      for (const t of tries) expect(await t.line()).toBe('ready')
      fs.writeFileSync(go, '')
      const got = (await Promise.all(tries.map(t => t.line()))).filter(l => l === 'got').length
      // Claimants of a stale lock that see each other all back off: a try-lock may then find it taken by none.
      if (stale) expect(got).toBeLessThanOrEqual(1)
      else expect(got).toBe(1)
      for (const t of tries) t.child.stdin.end()
      expect(await Promise.all(tries.map(t => t.exited))).toEqual(Array(6).fill(0))
      expect(names()).toEqual(stale && got === 0 ? [NAME] : [])
      fs.rmSync(path.join(dir, NAME), {force: true})
    }
    expect(tryAcquire(spec)).not.toBeNull()
  })
})
