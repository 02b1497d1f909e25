import fs from 'node:fs'
import path from 'node:path'

/**
 * Chromium, as installed (never downloaded), for the test of the interactive overview page; the PNGs need no browser.
 * $CAIRN_CHROMIUM first, then the usual install paths of Linux, macOS and Windows, then the usual names on PATH.
 */
export function findChromium(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (env.CAIRN_CHROMIUM) return isFile(env.CAIRN_CHROMIUM) ? env.CAIRN_CHROMIUM : undefined
  return installPaths(env, platform).find(isFile) ?? onPath(env, platform)
}

/** Where findChromium looked, for a message saying why a browser test was skipped. */
export function chromiumSearched(env: Record<string, string | undefined>): string {
  if (env.CAIRN_CHROMIUM) return `$CAIRN_CHROMIUM is ${env.CAIRN_CHROMIUM}, which does not exist`
  return `$CAIRN_CHROMIUM is not set, and neither the usual install paths nor PATH have ${NAMES.join(', ')}`
}

function installPaths(env: Record<string, string | undefined>, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') {
    const apps = [
      ['Google Chrome.app', 'Google Chrome'],
      ['Chromium.app', 'Chromium'],
      ['Microsoft Edge.app', 'Microsoft Edge'],
    ]
    const roots = ['/Applications', ...(env.HOME ? [path.join(env.HOME, 'Applications')] : [])]
    return roots.flatMap(root => apps.map(([app, bin]) => path.join(root, app, 'Contents', 'MacOS', bin)))
  }
  if (platform === 'win32') {
    const roots = [
      env.LOCALAPPDATA,
      env.PROGRAMFILES,
      env['PROGRAMFILES(X86)'],
      env.ProgramFiles,
      env['ProgramFiles(x86)'],
    ].filter((r): r is string => !!r)
    const apps = [
      ['Google', 'Chrome', 'Application', 'chrome.exe'],
      ['Chromium', 'Application', 'chrome.exe'],
      ['Microsoft', 'Edge', 'Application', 'msedge.exe'],
    ]
    return [...new Set(roots)].flatMap(root => apps.map(app => path.join(root, ...app)))
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ]
}

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome', 'msedge']

function onPath(env: Record<string, string | undefined>, platform: NodeJS.Platform): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean)
  const exts =
    platform === 'win32'
      ? (env.PATHEXT ?? '.EXE')
          .split(';')
          .filter(Boolean)
          .map(e => e.toLowerCase())
      : ['']
  for (const dir of dirs)
    for (const name of NAMES)
      for (const ext of exts) if (isFile(path.join(dir, name + ext))) return path.join(dir, name + ext)
  return undefined
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}
