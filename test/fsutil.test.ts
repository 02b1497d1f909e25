import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {
  AtomicWriteError,
  removeFiles,
  TMP_MARK,
  writeFileAtomic,
  writeFilesAtomic,
  writePartsAtomic,
} from '../src/store/files/fsutil.js'
import {tempDir} from './helpers.js'

/** Every file under dir, relative, with its content. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8')
    }
  }
  walk(dir)
  return out
}

async function failure(pending: Promise<unknown>): Promise<AtomicWriteError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AtomicWriteError)
  return error as AtomicWriteError
}

describe('writeFileAtomic', () => {
  it('writes a string or a buffer, creating directories and replacing a file, with no temp file left', () => {
    const dir = tempDir()
    writeFileAtomic(path.join(dir, 'a/b/c.md'), 'first\n')
    writeFileAtomic(path.join(dir, 'a/b/c.md'), Buffer.from('second\n'))
    writeFileAtomic(path.join(dir, 'd.md'), '')
    expect(tree(dir)).toEqual({'a/b/c.md': 'second\n', 'd.md': ''})
  })

  it('leaves the old content and no temp file when the rename fails', () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, 'taken/inner'), {recursive: true})
    expect(() => writeFileAtomic(path.join(dir, 'taken'), 'x')).toThrow(expect.objectContaining({code: 'EISDIR'}))
    expect(fs.readdirSync(dir)).toEqual(['taken'])
  })
})

describe('writePartsAtomic', () => {
  it('writes the parts one after another and returns a descriptor on the file written, even once it is replaced', () => {
    const dir = tempDir()
    const file = path.join(dir, 'cache/index')
    const fd = writePartsAtomic(file, [Buffer.from('head\n'), new Uint8Array(0), Buffer.from('body')])
    try {
      writeFileAtomic(file, 'replaced')
      const read = Buffer.alloc(9)
      expect(fs.readSync(fd, read, 0, 9, 0)).toBe(9)
      expect(read.toString()).toBe('head\nbody')
    } finally {
      fs.closeSync(fd)
    }
    expect(tree(dir)).toEqual({'cache/index': 'replaced'})
  })

  it('leaves the old content and no temp file when the rename fails', () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, 'taken/inner'), {recursive: true})
    expect(() => writePartsAtomic(path.join(dir, 'taken'), [Buffer.from('x')])).toThrow(
      expect.objectContaining({code: 'EISDIR'}),
    )
    expect(fs.readdirSync(dir)).toEqual(['taken'])
  })
})

describe('writeFilesAtomic', () => {
  it('writes every file, in new and existing directories, with no temp file left', async () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, 'cards/pitfall'), {recursive: true})
    fs.writeFileSync(path.join(dir, 'cards/pitfall/old.md'), 'old\n')
    const entries = Array.from({length: 60}, (_, i) => ({
      file: path.join(dir, ['cards/pitfall', 'cards/model', 'new/deep/er'][i % 3], `card-${i}.md`),
      content: i % 2 ? `card ${i}\n`.repeat(100) : Buffer.from(`card ${i}\n`),
    }))
    entries.push({file: path.join(dir, 'cards/pitfall/old.md'), content: 'new\n'})
    await writeFilesAtomic(entries)
    const want: Record<string, string> = {}
    for (const e of entries) want[path.relative(dir, e.file)] = e.content.toString()
    expect(tree(dir)).toEqual(want)
    await writeFilesAtomic([])
  })

  it('on a failed rename, reports the files already replaced and removes every temp file', async () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'b.md'), 'old b\n')
    fs.writeFileSync(path.join(dir, 'd.md'), 'old d\n')
    fs.mkdirSync(path.join(dir, 'c.md/inner'), {recursive: true})
    const entries = ['a.md', 'b.md', 'c.md', 'd.md'].map(n => ({file: path.join(dir, n), content: `new ${n}\n`}))
    const error = await failure(writeFilesAtomic(entries))
    expect(error.renamed).toEqual([path.join(dir, 'a.md'), path.join(dir, 'b.md')])
    expect(error.cause).toMatchObject({code: 'EISDIR'})
    expect(error.message).toMatch(/ \(2 of 4 file\(s\) were already replaced\)$/)
    expect(tree(dir)).toEqual({'a.md': 'new a.md\n', 'b.md': 'new b.md\n', 'd.md': 'old d\n'})
    expect(fs.readdirSync(path.join(dir, 'c.md'))).toEqual(['inner'])
  })

  it('when a target directory cannot be made (its parent is a file), replaces nothing and removes every temp file', async () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'a.md'), 'old a\n')
    fs.writeFileSync(path.join(dir, 'blocker'), 'a file\n')
    const entries = [
      ...Array.from({length: 20}, (_, i) => ({file: path.join(dir, `x/card-${i}.md`), content: `card ${i}\n`})),
      {file: path.join(dir, 'blocker/sub/c.md'), content: 'c\n'},
      {file: path.join(dir, 'a.md'), content: 'new a\n'},
    ]
    const error = await failure(writeFilesAtomic(entries))
    expect(error.renamed).toEqual([])
    expect(error.cause).toMatchObject({code: 'ENOTDIR'})
    const left = tree(dir)
    expect(Object.keys(left).filter(f => f.includes(TMP_MARK))).toEqual([])
    expect(left).toEqual({'a.md': 'old a\n', blocker: 'a file\n'})
  })
})

describe('removeFiles', () => {
  it('removes every file and prunes the emptied directories up to the stop', async () => {
    const dir = tempDir()
    const files = Array.from({length: 20}, (_, i) => path.join(dir, 'a', i % 2 ? 'b' : 'c', `f${i}`))
    for (const f of files) {
      fs.mkdirSync(path.dirname(f), {recursive: true})
      fs.writeFileSync(f, 'x')
    }
    await removeFiles(files, dir)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('on a failure takes no further file and rejects only once every removal under way has ended', async () => {
    const dir = tempDir()
    const files = Array.from({length: 40}, (_, i) => path.join(dir, `f${String(i).padStart(2, '0')}`))
    for (const f of files) fs.writeFileSync(f, 'x')
    // A directory where a file is expected: its removal fails (rm without recursive).
    fs.rmSync(files[5])
    fs.mkdirSync(files[5])
    await expect(removeFiles(files, dir)).rejects.toThrow()
    const left = fs.readdirSync(dir).sort()
    // The failing one and those no worker took yet are left: at most the 8 in flight went after it.
    expect(left).toContain('f05')
    expect(left.length).toBeGreaterThanOrEqual(40 - 5 - 1 - 8)
    // Nothing is removed after the rejection: a file put back (as a restore does) stays.
    fs.writeFileSync(files[39], 'restored')
    await new Promise(resolve => setTimeout(resolve, 100))
    expect(fs.readdirSync(dir).sort()).toEqual([...new Set([...left, 'f39'])].sort())
  })
})
