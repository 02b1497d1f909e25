import fs from 'node:fs'
import {pathToFileURL} from 'node:url'
import {CairnError} from '../domain/errors.js'

/** Chromium is used as installed (never downloaded): $CAIRN_CHROMIUM, else the usual system paths. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable']

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export function findChromium(env: Record<string, string | undefined>): string | undefined {
  if (env.CAIRN_CHROMIUM) return fs.existsSync(env.CAIRN_CHROMIUM) ? env.CAIRN_CHROMIUM : undefined
  return CANDIDATES.find(p => fs.existsSync(p))
}

export interface Shot {
  /** CSS selector of the element to capture. */
  selector: string
  file: string
}

export interface RenderedImage {
  file: string
  width: number
  height: number
}

/** Opens the HTML file in headless Chromium and saves one PNG per element. */
export async function screenshotElements(env: Record<string, string | undefined>, htmlFile: string, shots: Shot[]): Promise<RenderedImage[]> {
  const executablePath = findChromium(env)
  if (!executablePath) {
    const where = env.CAIRN_CHROMIUM ? `$CAIRN_CHROMIUM (${env.CAIRN_CHROMIUM}) does not exist` : `none of ${CANDIDATES.join(', ')} exists`
    throw new CairnError('browser_unavailable', `cannot render the overview PNGs: no Chromium found (${where}). Install it ("apt-get install chromium") or set CAIRN_CHROMIUM; the JSON files and overview.html were written`)
  }
  // Loaded on demand: parsing playwright-core costs every other command a few hundred ms.
  const {chromium} = await import('playwright-core')
  let browser
  try {
    browser = await chromium.launch({executablePath, args: FLAGS, timeout: 60_000})
  } catch (error) {
    throw new CairnError('browser_unavailable', `cannot render the overview PNGs: Chromium at ${executablePath} did not start (${String((error as Error).message).split('\n')[0]}); the JSON files and overview.html were written`)
  }
  try {
    const page = await browser.newPage({viewport: {width: 1400, height: 900}, deviceScaleFactor: 1})
    await page.goto(pathToFileURL(htmlFile).href)
    const out: RenderedImage[] = []
    for (const shot of shots) {
      const png = await page.locator(shot.selector).screenshot({path: shot.file, animations: 'disabled'})
      // The PNG header is the truth about the picture's size (layout boxes are fractional).
      out.push({file: shot.file, width: png.readUInt32BE(16), height: png.readUInt32BE(20)})
    }
    return out
  } finally {
    await browser.close()
  }
}
