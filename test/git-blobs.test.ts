import {describe, expect, it} from 'vitest'
import {readBlobs} from '../src/store/git.js'
import {initRepo} from './helpers.js'

describe('readBlobs: many blobs from one git cat-file --batch', () => {
  it('splits by byte count: multi-byte text, line breaks, an empty blob; a missing id is left out', async () => {
    const repo = await initRepo()
    const texts = ['变量加引号\n第二行\n', 'a\n\nb\n\n', '', 'x'.repeat(70_000)]
    const ids = texts.map((t, i) => {
      repo.write(`blob-${i}.txt`, t)
      return repo.git('hash-object', '-w', `blob-${i}.txt`).trim()
    })
    const missing = '0123456789abcdef0123456789abcdef01234567'
    const blobs = await readBlobs(repo.ctx(), repo.dir, [...ids, missing])
    expect([...blobs.keys()]).toEqual(ids)
    expect(ids.map(id => blobs.get(id))).toEqual(texts)
    expect(await readBlobs(repo.ctx(), repo.dir, [])).toEqual(new Map())
  })
})
