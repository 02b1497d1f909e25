import fs from 'node:fs'
import path from 'node:path'
import {CairnError, type Issue, validationError} from '../../domain/errors.js'
import {decodeUtf8} from '../../domain/text.js'
import type {Context} from '../../context.js'
import {folderWalker} from './folder-walk.js'
import {SOURCE_LIMITS} from './source-files.js'

/** Input files and stdin are capped: a runaway pipe must not exhaust memory. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024

/** Reads FILE or "-" (stdin) as strict UTF-8 text, returning a label for error messages. */
export async function readInput(ctx: Context, file: string): Promise<{text: string; label: string}> {
  if (file === '-') {
    const bytes = await ctx.readStdin()
    if (bytes.length > MAX_INPUT_BYTES) throw tooBig('(stdin)', bytes.length)
    return {text: decodeUtf8(bytes, '(stdin)'), label: '(stdin)'}
  }
  const full = path.resolve(ctx.cwd, file)
  let stat: fs.Stats
  try {
    stat = fs.statSync(full)
  } catch {
    throw new CairnError('not_found', `No such file: ${file}. Fix: check the path`)
  }
  if (!stat.isFile()) {
    const what = stat.isDirectory() ? 'a directory' : 'not a regular file'
    throw validationError([
      {file, field: '(file)', message: `is ${what}`, fix: 'give a JSON, YAML or Markdown file, or "-" for stdin'},
    ])
  }
  if (stat.size > MAX_INPUT_BYTES) throw tooBig(file, stat.size)
  return {text: decodeUtf8(fs.readFileSync(full), file), label: file}
}

function tooBig(label: string, size: number): CairnError {
  return validationError([
    {
      file: label,
      field: '(content)',
      message: `input is ${size} bytes, over the ${MAX_INPUT_BYTES}-byte limit`,
      fix: 'split the input into smaller files',
    },
  ])
}

/**
 * The files a path names: itself, or every file under a directory (sorted, dot files skipped) whose name ends with
 * one of the extensions, a link listed as itself and never entered. Paths come back as given, relative to cwd. An
 * unreadable folder, or a walk past its caps, is a validation error naming the folder and the fix.
 */
export function inputFiles(ctx: Context, p: string, extensions: readonly string[]): string[] {
  if (p === '-') return [p]
  const full = path.resolve(ctx.cwd, p)
  let stat: fs.Stats
  try {
    stat = fs.statSync(full)
  } catch {
    throw new CairnError('not_found', `No such file or directory: ${p}. Fix: check the path`)
  }
  if (!stat.isDirectory()) return [p]
  const out: string[] = []
  const issues: Issue[] = []
  const add = (f: string) => out.push(path.relative(ctx.cwd, f) || f)
  const walk = folderWalker(extensions, SOURCE_LIMITS, {
    file: add,
    link: (f, wanted) => wanted && add(f),
    refuse: (f, message, fix) => issues.push({file: path.relative(ctx.cwd, f) || f, field: '(path)', message, fix}),
  })
  walk(full, fs.realpathSync(full))
  if (issues.length) throw validationError(issues)
  return out
}

export const fileExists = (file: string): boolean => fs.existsSync(file)

/** A whole file as strict UTF-8 text; exit 4 when it does not exist. */
export function readTextFile(file: string, label: string): string {
  let bytes: Buffer
  try {
    bytes = fs.readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CairnError('not_found', `No such file: ${label}. Fix: check the path`)
    throw error
  }
  return decodeUtf8(bytes, label)
}

/**
 * Input the user names (a --file, "-" for stdin, paths to lint, an eval suite), read as bad input is defined;
 * relative paths are from ctx.cwd. As Stores.input hands it out.
 */
export interface InputFiles {
  /** FILE, or "-" (stdin), as strict UTF-8 text with a label for error messages; over MAX_INPUT_BYTES is refused. */
  read(file: string): Promise<{text: string; label: string}>
  /** The files a path names: itself, or each file under a directory whose name ends with one of the extensions. */
  files(p: string, extensions: readonly string[]): string[]
  exists(file: string): boolean
  /** A whole file as strict UTF-8 text; exit 4 when it does not exist. */
  readText(file: string, label: string): string
}

export function openInput(ctx: Context): InputFiles {
  return {
    read: file => readInput(ctx, file),
    files: (p, extensions) => inputFiles(ctx, p, extensions),
    exists: fileExists,
    readText: readTextFile,
  }
}
