// fsync: the cost of durable writes. 1,000 files of ~1.5 KB over 5 directories (the card types), written
//   - with writeFilesAtomic: temp files flushed several at a time, renamed, each directory flushed once;
//   - without any flush: temp file and rename, as writes were before (the floor);
//   - with writeFileAtomic one file at a time: a flush per file and per directory (why the batch exists).
// In process, on the disk under os.tmpdir(); a fresh directory per run. The modes take turns, so a busy disk hurts
// each alike.
import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {CARD_TYPES, cleanup, log, median, ROOT, tempDir} from '../lib.js'

export const description = 'durable writes: 1,000 files of 1.5 KB, batched fsync vs none vs one fsync per file'

const FILES = 1000
const RUNS = 5
const CONTENT = `---\n${'x'.repeat(1490)}\n`

function entries(dir) {
  return Array.from({length: FILES}, (_, i) => ({
    file: path.join(dir, CARD_TYPES[i % CARD_TYPES.length], `card-${i}.md`),
    content: CONTENT,
  }))
}

function withoutFlush(list) {
  for (const {file, content} of list) {
    fs.mkdirSync(path.dirname(file), {recursive: true})
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp-${randomBytes(4).toString('hex')}`)
    fs.writeFileSync(tmp, content)
    fs.renameSync(tmp, file)
  }
}

export async function run() {
  const {writeFileAtomic, writeFilesAtomic} = await import(
    pathToFileURL(path.join(ROOT, 'dist', 'store', 'files', 'fsutil.js')).href
  )
  const modes = [
    {name: `writeFilesAtomic ${FILES} files (batched fdatasync)`, write: list => writeFilesAtomic(list)},
    {name: `temp + rename ${FILES} files, no fsync`, write: list => withoutFlush(list)},
    {
      name: `writeFileAtomic x ${FILES} (one fdatasync each)`,
      write: list => list.forEach(e => writeFileAtomic(e.file, e.content)),
    },
  ]
  const times = modes.map(() => [])
  for (let r = 0; r < RUNS; r++) {
    for (const [i, mode] of modes.entries()) {
      const dir = tempDir('cairn-bench-fsync-')
      const list = entries(dir)
      const start = process.hrtime.bigint()
      await mode.write(list)
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (fs.readFileSync(list[FILES - 1].file, 'utf8') !== CONTENT) throw new Error(`${mode.name}: wrong content`)
      cleanup(dir)
      times[i].push(ms)
      log(`${mode.name}: run ${r + 1}/${RUNS} ${ms.toFixed(0)} ms`)
    }
  }
  return modes.map((mode, i) => ({
    name: mode.name,
    median_ms: Math.round(median(times[i]) * 10) / 10,
    runs_ms: times[i].map(t => Math.round(t * 10) / 10),
    peak_rss_mb: null,
    files: FILES,
  }))
}
