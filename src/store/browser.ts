import fs from 'node:fs'
import path from 'node:path'

/**
 * Chromium, as installed (never downloaded), for the test of the interactive overview page; the PNGs need no browser.
 * $CAIRN_CHROMIUM first, then the usual install paths of Linux, macOS and Windows, then the usual names on PATH.
 */
export function findChromium(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.CAIRN_CHROMIUM) return isFile(env.CAIRN_CHROMIUM) ? env.CAIRN_CHROMIUM : undefined
  return installPaths(env, platform).find(isFile) ?? onPath(env, platform)
}

function installPaths(env: Record<string, string | undefined>, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge']
    const roots = ['/Applications', ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : [])]
    return roots.flatMap(root => apps.map(app => path.posix.join(root, app)))
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.ProgramFiles, env['ProgramFiles(x86)']].filter((r): r is string => !!r)
    const apps = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe']
    return [...new Set(roots)].flatMap(root => apps.map(app => path.win32.join(root, app)))
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium']
}

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome', 'msedge']

function onPath(env: Record<string, string | undefined>, platform: NodeJS.Platform): string | undefined {
  const win = platform === 'win32'
  const dirs = (env.PATH ?? env.Path ?? '').split(win ? ';' : ':').filter(Boolean)
  const exts = win ? (env.PATHEXT ?? '.EXE').split(';').filter(Boolean) : ['']
  for (const dir of dirs) {
    for (const name of NAMES) {
      for (const ext of exts) {
        const file = (win ? path.win32 : path.posix).join(dir, name + ext.toLowerCase())
        if (isFile(file)) return file
      }
    }
  }
  return undefined
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}
