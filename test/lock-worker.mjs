// A separate process for test/lock.test.ts, using the built lock (run `npm run build` first).
//   hold <root>                      takes the lock, prints "held", releases when stdin ends
//   fight <root> <log> <rounds> <go> prints "ready", waits for the file <go>, then <rounds> times: takes the lock,
//                                    appends "enter <pid>" and "exit <pid>" to <log> around a short sleep, and leaves
//                                    a stale lock behind (a record naming pid 1 with a wrong start time), as a
//                                    process killed while holding it would
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {randomBytes} from 'node:crypto'
import {acquireLock} from '../dist/store/locks/lock.js'

const [mode, root, log, rounds, go] = process.argv.slice(2)
const sleep = ms => new Promise(r => setTimeout(r, ms))

if (mode === 'hold') {
  const lock = await acquireLock(root, {waitMs: 0})
  process.stdout.write('held\n')
  process.stdin.on('end', () => {
    lock.release()
    process.exit(0)
  })
  process.stdin.resume()
} else if (mode === 'fight') {
  process.stdout.write('ready\n')
  while (!fs.existsSync(go)) await sleep(1)
  const start1 = fs.readFileSync('/proc/1/stat', 'utf8').split(') ')[1].split(' ')[19]
  const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  for (let i = 0; i < Number(rounds); i++) {
    const lock = await acquireLock(root, {waitMs: 120_000})
    fs.appendFileSync(log, `enter ${process.pid}\n`)
    await sleep(5)
    fs.appendFileSync(log, `exit ${process.pid}\n`)
    const stale = {
      pid: 1,
      host: os.hostname(),
      start: String(Number(start1) + 1),
      boot,
      at: new Date().toISOString(),
      token: randomBytes(8).toString('hex'),
    }
    const tmp = path.join(path.dirname(lock.path), `stale-${process.pid}`)
    fs.writeFileSync(tmp, JSON.stringify(stale))
    fs.renameSync(tmp, lock.path)
  }
} else throw new Error(`unknown mode ${mode}`)
