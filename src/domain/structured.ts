import {validationError} from './errors.js'
import {splitFrontmatter} from './frontmatter.js'
import {parseYaml} from './yaml.js'

/** JSON or YAML (JSON is valid YAML); a Markdown file with frontmatter gives its fields plus body. */
export function parseStructured(text: string, label: string): {data: unknown; body?: string} {
  const parts = splitFrontmatter(text, label)
  if (parts) return {data: parseYaml(parts.yaml, label, parts.yamlStartLine - 1), body: parts.body}
  if (!text.trim())
    throw validationError([
      {
        file: label,
        field: '(content)',
        message: 'input is empty',
        fix: 'give a JSON object, an array of objects, or YAML',
      },
    ])
  if (/^\s*[[{]/.test(text)) {
    try {
      return {data: JSON.parse(text)}
    } catch {
      // Not strict JSON; the YAML parser either accepts it or reports the position.
    }
  }
  return {data: parseYaml(text, label)}
}
