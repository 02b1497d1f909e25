import {parseYaml} from '../domain/card/format.js'
import {validationError} from '../domain/errors.js'

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
