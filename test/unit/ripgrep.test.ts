import fs from 'node:fs'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parseRipgrepJson, ripgrepBinary, runRipgrep} from '../../src/store/files/ripgrep.js'
import {tempDir} from '../helpers.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, {recursive: true, force: true})
})

function folder(files: Record<string, string | Buffer>): string {
  const dir = tempDir()
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text)
  return dir
}

describe('ripgrep, the one way cairn runs it', () => {
  it('finds the binary of the platform package, and none when CAIRN_RG is off or names no file', () => {
    const found = ripgrepBinary({})
    expect(found).toMatch(/@vscode[/\\]ripgrep-[a-z0-9]+-[a-z0-9]+[/\\]bin[/\\]rg(\.exe)?$/)
    expect(ripgrepBinary({CAIRN_RG: 'off'})).toBeUndefined()
    expect(ripgrepBinary({CAIRN_RG: '/nonexistent/rg'})).toBeUndefined()
    expect(ripgrepBinary({CAIRN_RG: found})).toBe(found)
  })

  it('reports each matched line with its number, text and spans, Chinese and invalid UTF-8 included', async () => {
    const dir = folder({
      'a.md': 'title: Retry budget\nsummary: 重试预算 in the queue\n',
      'b.md': Buffer.concat([Buffer.from('bad \xff byte: retry\n', 'latin1')]),
      'c.md': 'nothing here\n',
    })
    const run = await runRipgrep(ripgrepBinary()!, ['--json', '-e', 'retry|重试', '--', 'a.md', 'b.md', 'c.md'], {
      cwd: dir,
    })
    expect(run.code).toBe(0)
    const matches = parseRipgrepJson(run.stdout).sort((x, y) => x.path.localeCompare(y.path) || x.line - y.line)
    expect(matches).toEqual([
      {path: 'a.md', line: 2, text: 'summary: 重试预算 in the queue', spans: [{start: 9, end: 15, text: '重试'}]},
      {path: 'b.md', line: 1, text: 'bad \ufffd byte: retry', spans: [{start: 12, end: 17, text: 'retry'}]},
    ])
  })

  it('exits 1 when nothing matches and 2 with its own message for a pattern it refuses', async () => {
    const dir = folder({'a.md': 'text\n'})
    const none = await runRipgrep(ripgrepBinary()!, ['-e', 'absent', '--', 'a.md'], {cwd: dir})
    expect([none.code, none.stdout.length]).toEqual([1, 0])
    const bad = await runRipgrep(ripgrepBinary()!, ['-e', 'a(b', '--', 'a.md'], {cwd: dir})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('unclosed group')
  })

  it('ignores a user rg config, and rejects when output passes the cap or rg cannot start', async () => {
    const dir = folder({'a.md': 'Retry\n', rgrc: '--ignore-case\n'})
    process.env.RIPGREP_CONFIG_PATH = path.join(dir, 'rgrc')
    try {
      const run = await runRipgrep(ripgrepBinary()!, ['-e', 'retry', '--', 'a.md'], {cwd: dir})
      expect(run.code).toBe(1)
    } finally {
      delete process.env.RIPGREP_CONFIG_PATH
    }
    await expect(
      runRipgrep(ripgrepBinary()!, ['-e', 'Retry', '--', 'a.md'], {cwd: dir, maxOutputBytes: 2}),
    ).rejects.toThrow('ripgrep wrote more than 2 bytes')
    await expect(runRipgrep(path.join(dir, 'a.md'), ['x'], {cwd: dir})).rejects.toThrow()
  })
})
