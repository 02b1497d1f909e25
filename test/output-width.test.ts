import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {table} from '../src/cli/render.js'
import {displayWidth, padEnd} from '../src/cli/width.js'
import {BIN, card, cli, initRepo, ROOT, type Repo} from './helpers.js'

/** Whether a cairn run loaded string-width, which it should only do to measure text that is not plain ASCII. */
function loadsStringWidth(repo: Repo, args: string[]): boolean {
  const trace = path.join(repo.dir, '..', 'requires.txt')
  const r = spawnSync(
    process.execPath,
    ['--import', path.join(ROOT, 'test/fixtures/trace-requires.mjs'), BIN, ...args],
    {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_TRACE_REQUIRES: trace},
      encoding: 'utf8',
    },
  )
  expect(r.status).toBe(0)
  // oclif loads an old string-width of its own; cairn's is the top-level one.
  return fs
    .readFileSync(trace, 'utf8')
    .split('\n')
    .some(f => f.startsWith(path.join(ROOT, 'node_modules', 'string-width') + path.sep))
}

describe('wide characters line up by display width', () => {
  it('displayWidth counts terminal columns; padEnd pads to them and never cuts', () => {
    expect(['abc', '中文', '👍', 'e\u0301', '\x1b[31mred\x1b[39m', 'ｱ'].map(displayWidth)).toEqual([3, 4, 2, 1, 3, 1])
    expect(padEnd('中文', 6)).toBe('中文  ')
    expect(padEnd('too long', 3)).toBe('too long')
  })

  it('a table with CJK and emoji cells in the middle keeps every later column in place', () => {
    expect(
      table(
        [
          ['a', '中文标题', 'x'],
          ['bb', '👍 ok', 'y'],
          ['c', 'plain', 'z'],
        ],
        ['ID', 'NAME', 'END'],
      ),
    ).toBe(['ID  NAME      END', 'a   中文标题  x', 'bb  👍 ok     y', 'c   plain     z'].join('\n'))
  })

  // The title is the last column: it is never padded, so a Chinese title leaves no trailing spaces.
  it('cairn list with an English and a Chinese title', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    await propose(repo.ctx(), {
      fields: card({
        slug: 'merge-config-array-trap',
        type: 'guideline',
        title: '合并配置时数组被覆盖',
        summary: '合并 hook 配置时 deepMerge 会覆盖数组；应追加并去重。',
      }),
    })
    const r = await cli(['list'], {cwd: repo.dir, env: repo.env})
    expect(r.stdout).toBe(
      [
        'ID                            TYPE       STATUS   LOAD    STORE    TITLE',
        'merge-config-array-trap       guideline  pending  recall  project  合并配置时数组被覆盖',
        'deepmerge-array-replace-trap  pitfall    pending  recall  project  deepMerge replaces arrays',
        '',
      ].join('\n'),
    )
    // An unpadded last column is never measured: the width library stays unloaded.
    expect(loadsStringWidth(repo, ['list'])).toBe(false)
  })

  // Five characters, ten columns: counting characters would pull CARDS and SUBJECT five columns left on that row.
  it('cairn log with an actor whose name is wider than it is long', async () => {
    const repo = await initRepo()
    const proposed = await cli(['propose', '-'], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_ACTOR: '王小明同学'},
      input: JSON.stringify(card()),
    })
    expect(proposed.code).toBe(0)
    const [propose7, init7] = repo.git('log', '--format=%h', '--abbrev=7', '-2').trim().split('\n')
    // Wide enough that no line is cut (off a terminal, cairn log cuts at 100 columns, or $COLUMNS).
    const r = await cli(['log'], {cwd: repo.dir, env: {...repo.env, COLUMNS: '140'}})
    expect(r.stdout).toBe(
      [
        'COMMIT   DATE                  OP       ACTOR       CARDS                         SUBJECT',
        `${propose7}  2026-11-29T10:00:00Z  propose  王小明同学  deepmerge-array-replace-trap  cairn(propose): deepmerge-array-replace-trap`,
        `${init7}  2026-11-29T10:00:00Z  init     tester      -                             cairn(init): initialise the project store`,
        '',
      ].join('\n'),
    )
    expect(loadsStringWidth(repo, ['log'])).toBe(true)
  })
})
