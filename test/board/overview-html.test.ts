import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {type Browser, chromium} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {boardState} from '../../src/app/board/read.js'
import {chromiumSearched, findChromium} from './chromium.js'
import {tempDir} from '../helpers.js'
import {T} from './helpers.js'
import {planted} from './overview-fixtures.js'

/**
 * overview.html (--html) in a real Chromium, found as installed ($CAIRN_CHROMIUM, the usual install paths, PATH).
 * The PNGs need no browser; on a machine without one only this file is skipped, and it says so.
 */
const executablePath = findChromium(process.env)
if (!executablePath) {
  console.log(
    `board overview: the browser test of overview.html was skipped: no Chromium found (${chromiumSearched(process.env)}). ` +
      'Every other test, the PNGs included, runs without one; .ci/run installs Chromium.',
  )
}

describe('finding Chromium on any OS', () => {
  const file = (...parts: string[]) => {
    const f = path.join(...parts)
    fs.mkdirSync(path.dirname(f), {recursive: true})
    fs.writeFileSync(f, '')
    return f
  }
  it('looks in $CAIRN_CHROMIUM, then the install paths of macOS and Windows, then PATH', () => {
    const home = tempDir('cairn-chromium-')
    expect(findChromium({CAIRN_CHROMIUM: '/nonexistent/chromium'})).toBeUndefined()
    expect(chromiumSearched({CAIRN_CHROMIUM: '/nonexistent/chromium'})).toBe(
      '$CAIRN_CHROMIUM is /nonexistent/chromium, which does not exist',
    )
    expect(findChromium({HOME: home, PATH: ''}, 'darwin')).toBeUndefined()
    const mac = file(home, 'Applications', 'Chromium.app', 'Contents', 'MacOS', 'Chromium')
    expect(findChromium({HOME: home, PATH: ''}, 'darwin')).toBe(mac)
    const win = file(home, 'Local', 'Google', 'Chrome', 'Application', 'chrome.exe')
    expect(findChromium({LOCALAPPDATA: path.join(home, 'Local'), PATH: ''}, 'win32')).toBe(win)
    const bin = path.join(home, 'bin')
    const onPath = file(bin, 'google-chrome')
    expect(findChromium({PATH: ['/nonexistent', bin].join(path.delimiter)}, 'darwin')).toBe(onPath)
    const exe = file(bin, 'msedge.exe')
    expect(findChromium({PATH: bin, PATHEXT: '.COM;.EXE'}, 'win32')).toBe(exe)
  })
})

describe.skipIf(!executablePath)('overview.html in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  })
  afterAll(async () => browser?.close())

  it('shows the same pictures inline, and every field of the box under the pointer; a click keeps them in the side panel', async () => {
    const repo = await planted()
    const dir = tempDir('cairn-overview-')
    const {overview} = await boardState(repo.ctx(), {now: T(18), overview: {dir, diffFrom: '1', html: true}})
    expect(overview!.files).toEqual({state: 'state.json', diff: 'diff.json', html: 'overview.html'})
    const html = fs.readFileSync(path.join(dir, 'overview.html'), 'utf8')
    for (const img of overview!.images) expect(html).toContain(fs.readFileSync(path.join(dir, img.svg), 'utf8').trim())

    const page = await browser.newPage({viewport: {width: 1800, height: 1000}})
    const lines = (selector: string) =>
      page.$$eval(`${selector} > *`, els => els.map(e => (e as HTMLElement).innerText.trim()))
    await page.goto(pathToFileURL(path.join(dir, 'overview.html')).href)
    expect(await page.$$eval('figure svg', svgs => svgs.map(s => s.getAttribute('data-panel')))).toEqual([
      'diff-root',
      'diff-under-trip',
    ])
    expect(await page.locator('#tip').isHidden()).toBe(true)

    const visa = page.locator('figure[data-panel="diff-root"] rect[data-item="visa"][data-end="now"]')
    await visa.hover()
    expect(await page.locator('#tip').isVisible()).toBe(true)
    expect(await lines('#tip')).toEqual(['visa', 'changed', 'now', 'request', 'weight 5', 'share 35 (explicit)'])
    const fields = [
      'visa',
      'changed',
      'now',
      'request',
      'weight 5',
      'share 35 (explicit)',
      'Visa agent needs the bank statement; only the user can provide it.',
      'due in 2d 6h',
      'updated 6h ago',
      'reason: The statement decides whether the trip happens.',
      'status active',
      'layer: trip',
      'annotation a-00000002 (saved): Statement on Friday.',
    ]
    expect(await lines('#panel')).toEqual(fields)

    // A click pins the panel: pointing elsewhere moves the tooltip only.
    await visa.click()
    const gone = page.locator('figure[data-panel="diff-root"] rect[data-item="reading"][data-end="then"]')
    await gone.hover()
    expect((await lines('#tip')).slice(0, 3)).toEqual(['reading', 'withdrawn', 'as at the diff start'])
    expect(await lines('#panel')).toEqual(fields)
    await page.locator('figure[data-panel="diff-root"] rect[data-box="free"][data-end="now"][data-layer=""]').click()
    expect(await lines('#panel')).toEqual(['free budget', 'share 54 left in layer root (now)'])
    await page.close()

    // Without --html no page is written, and an old one is removed.
    await boardState(repo.ctx(), {now: T(18), overview: {dir}})
    expect(fs.existsSync(path.join(dir, 'overview.html'))).toBe(false)
  })
})
