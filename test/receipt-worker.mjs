// A separate process for test/receipts-file.test.ts, appending receipts with the built store (run `npm run build`).
//   <store root> <writer> <count> <go>   prints "ready", waits for the file <go>, then appends <count> receipts
//                                        (session <writer>, chars 0..count-1) and exits; count 0 appends until killed,
//                                        printing "going" after the first hundred
import fs from 'node:fs'
import {receiptLine} from '../dist/domain/receipts.js'
import {projectStoreAt} from '../dist/store/layout.js'
import {appendReceipt} from '../dist/store/agents/receipts.js'

const [root, writer, count, go] = process.argv.slice(2)
const store = projectStoreAt(root)
process.stdout.write('ready\n')
while (!fs.existsSync(go)) await new Promise(r => setTimeout(r, 1))
const why = `trigger "${'a phrase the prompt said '.repeat(3).trim()}"`
for (let i = 0; Number(count) === 0 || i < Number(count); i++) {
  const cards = [{id: `card-of-${writer}`, why, chars: i}]
  appendReceipt(
    store,
    receiptLine({
      ts: '2026-11-29T10:00:00Z',
      session: writer,
      client: 'test',
      event: 'user-prompt-submit',
      cards,
      chars: i,
    }),
  )
  if (Number(count) === 0 && i === 100) process.stdout.write('going\n')
}
