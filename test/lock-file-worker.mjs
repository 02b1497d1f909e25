// A separate process for test/lock-file.test.ts, using the built primitive (run `npm run build` first). The lock is
// <dir>/<name>, with the recall index lock's rules (record `at` in ms, a live holder taken over after 10 minutes).
//   try <dir> <name> <go>        prints "ready", waits for the file <go>, tries the lock once and prints "got" or
//                                "busy"; releases it (if got) when stdin ends
//   worker <dir> <name> <token>  a process the lock is handed over to: prints "started", and when stdin ends
//                                releases the lock by its token and prints whether it did
import fs from 'node:fs'
import {releaseLockByToken, tryAcquire} from '../dist/store/locks/lock-file.js'

const [mode, dir, name, arg] = process.argv.slice(2)
const spec = {dir, name, staleness: {uncheckedMaxAgeMs: 600_000, liveMaxAgeMs: 600_000}, atInMs: true}
const sleep = ms => new Promise(r => setTimeout(r, ms))
const onEnd = fn => {
  process.stdin.on('end', () => {
    fn()
    process.exit(0)
  })
  process.stdin.resume()
}

if (mode === 'try') {
  process.stdout.write('ready\n')
  while (!fs.existsSync(arg)) await sleep(1)
  const lock = tryAcquire(spec)
  process.stdout.write(lock ? 'got\n' : 'busy\n')
  onEnd(() => lock?.release())
} else if (mode === 'worker') {
  process.stdout.write('started\n')
  onEnd(() => process.stdout.write(`${releaseLockByToken(spec, arg)}\n`))
} else throw new Error(`unknown mode ${mode}`)
