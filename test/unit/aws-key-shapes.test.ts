import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {awsKeyShapes} from '../../src/domain/secrets.js'
import {ROOT} from '../helpers.js'

// Keys are assembled at run time, so this file holds no token a scanner would flag. AWS's documentation examples:
const EXAMPLE_ID = 'AKIAIOSFODNN7' + 'EXAMPLE'
const EXAMPLE_SECRET = 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY'
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** A 40-character key as AWS makes them: 30 random bytes in base64, here from a seed. */
function secretKey(seed: number): string {
  const bytes = createHash('sha512').update(`key ${seed}`).digest()
  return Array.from(bytes.subarray(0, 40), b => B64[b & 63]).join('')
}
const withSlash = (seed: number) => {
  for (let s = seed; ; s++) if (/[/+]/.test(secretKey(s)) && /\d/.test(secretKey(s))) return secretKey(s)
}
const withoutSlash = (seed: number) => {
  for (let s = seed; ; s++) {
    const k = secretKey(s)
    if (!/[/+]/.test(k) && /\d/.test(k) && /[A-Z]/.test(k) && /[a-z]/.test(k)) return k
  }
}
const kinds = (text: string) => awsKeyShapes(text).map(s => [s.kind, text.slice(s.start, s.end)])

describe('awsKeyShapes: anything shaped like an AWS key', () => {
  it("finds AWS's documentation example keys, alone, in prose and in an assignment", () => {
    expect(kinds(EXAMPLE_ID)).toEqual([['key_id', EXAMPLE_ID]])
    expect(kinds(EXAMPLE_SECRET)).toEqual([['secret_key', EXAMPLE_SECRET]])
    expect(kinds(`Use ${EXAMPLE_ID} with "${EXAMPLE_SECRET}" in the fixture.`)).toEqual([
      ['key_id', EXAMPLE_ID],
      ['secret_key', EXAMPLE_SECRET],
    ])
    expect(kinds(`aws_secret_access_key = ${EXAMPLE_SECRET}\n`)).toEqual([['secret_key', EXAMPLE_SECRET]])
    expect(kinds(`ASIA${'Q'.repeat(12)}2345 and A3TX${'Z'.repeat(16)}`).map(k => k[0])).toEqual(['key_id', 'key_id'])
  })

  it('finds a bare 40-character secret key with a / or +, and one without near an access key ID', () => {
    const keys = Array.from({length: 50}, (_, i) => withSlash(i * 100))
    for (const key of keys) expect(kinds(`the key: ${key}`), key).toEqual([['secret_key', key]])
    const plain = withoutSlash(7)
    expect(kinds(`the key: ${plain}`)).toEqual([])
    expect(kinds(`id ${EXAMPLE_ID}, secret ${plain}`)).toEqual([
      ['key_id', EXAMPLE_ID],
      ['secret_key', plain],
    ])
    expect(kinds(`${plain} is the secret of ${EXAMPLE_ID}`)).toEqual([
      ['key_id', EXAMPLE_ID],
      ['secret_key', plain],
    ])
    // Too far from the ID to be its secret.
    expect(kinds(`id ${EXAMPLE_ID}. ${'Unrelated prose. '.repeat(15)}${plain}`)).toEqual([['key_id', EXAMPLE_ID]])
  })

  it('leaves git shas, hex hashes, UUIDs, identifiers, paths of words and base64 of text alone', () => {
    const sha1 = createHash('sha1').update('a commit').digest('hex')
    const benign = [
      sha1,
      sha1.toUpperCase(),
      `git checkout ${sha1} && git log ${sha1.slice(0, 12)}`,
      createHash('sha256').update('x').digest('hex'),
      createHash('md5').update('x').digest('hex'),
      createHash('sha256').update('x').digest('base64'),
      '123e4567-e89b-12d3-a456-426614174000',
      'ThisIsAVeryLongCamelCaseIdentifierName12',
      'src/components/Header2/NavigationBarItems',
      'packages/ui/src/components/DataTable2/v1x',
      'docs/Guides/V2/Migration/Upgrading/Notes3',
      // base64 of words, one with slashes in it.
      Buffer.from('What? Where? When? Who? How?!?').toString('base64'),
      Buffer.from('Append and dedupe arrays now!!').toString('base64'),
      EXAMPLE_ID.toLowerCase(),
      `${EXAMPLE_SECRET}x`,
      `x${EXAMPLE_SECRET.slice(1)}=`,
    ]
    expect(Buffer.from('What? Where? When? Who? How?!?').toString('base64')).toMatch(/\//)
    for (const text of benign) expect(kinds(text), text).toEqual([])
  })

  it('finds nothing in the benign fixtures, the README, the docs, or base64 of every 30-byte stretch of the README', () => {
    const samples = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/steering-samples.json'), 'utf8')) as {
      benign: {text: string}[]
    }
    const near = fs.readFileSync(path.join(ROOT, 'test/fixtures/near-duplicate-samples.json'), 'utf8')
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const docs = fs
      .readdirSync(path.join(ROOT, 'docs'), {recursive: true, withFileTypes: true})
      .filter(e => e.isFile() && e.name.endsWith('.md'))
      .map(e => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'))
    expect(samples.benign.length).toBeGreaterThan(20)
    for (const text of [...samples.benign.map(s => s.text), near, readme, ...docs]) expect(kinds(text)).toEqual([])
    const bytes = Buffer.from(readme)
    let encoded = 0
    for (let i = 0; i + 30 <= bytes.length; i += 7) {
      const b64 = bytes.subarray(i, i + 30).toString('base64')
      // Text with an em dash, a ? or a > encodes with / and +: the shapes most like a key.
      if (/[/+]/.test(b64)) encoded++
      expect(kinds(b64), b64).toEqual([])
    }
    expect(encoded).toBeGreaterThan(100)
  })
})
