import fs from 'node:fs'
import path from 'node:path'
import {CairnError, validationError} from '../domain/errors.js'
import {splitFrontmatter} from '../domain/frontmatter.js'
import {decodeUtf8} from '../domain/text.js'
import {parseYaml} from '../domain/yaml.js'
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
  const parts = splitFrontmatter(text, label)
  if (parts) return {data: parseYaml(parts.yaml, label, parts.yamlStartLine - 1), body: parts.body}
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
