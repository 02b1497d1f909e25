import fs from 'node:fs'
import path from 'node:path'
import {parseYaml} from '../domain/card/format.js'
import {CairnError, validationError} from '../domain/errors.js'
import {decodeUtf8} from '../domain/text.js'
import type {Context} from '../store/context.js'

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
  let size: number
  try {
    size = fs.statSync(full).size
  } catch {
    throw new CairnError('not_found', `${file}: no such file`)
  }
  if (size > MAX_INPUT_BYTES) throw tooBig(file, size)
  return {text: decodeUtf8(fs.readFileSync(full), file), label: file}
}

function tooBig(label: string, size: number): CairnError {
  return validationError([{file: label, field: '(content)', message: `input is ${size} bytes, over the ${MAX_INPUT_BYTES}-byte limit`, fix: 'split the input into smaller files'}])
}

/** JSON or YAML (JSON is valid YAML); a Markdown file with frontmatter gives its fields plus body. */
export function parseStructured(text: string, label: string): {data: unknown; body?: string} {
  if (/^---\r?\n/.test(text)) {
    const end = text.search(/\r?\n---\s*(\r?\n|$)/)
    if (end < 0) throw validationError([{file: label, field: '(frontmatter)', message: 'frontmatter has no closing "---" line', fix: 'close the frontmatter with a line containing only ---'}])
    const yamlText = text.slice(text.indexOf('\n') + 1, end)
    const body = text.slice(end).replace(/^\r?\n---[^\n]*\n?/, '')
    return {data: parseYaml(yamlText, label, 1), body}
  }
  if (!text.trim()) throw validationError([{file: label, field: '(content)', message: 'input is empty', fix: 'give a JSON object, an array of objects, or YAML'}])
  if (/^\s*[[{]/.test(text)) {
    try {
      return {data: JSON.parse(text)}
    } catch {
      // Not strict JSON; the YAML parser either accepts it or reports the position.
    }
  }
  return {data: parseYaml(text, label)}
}
