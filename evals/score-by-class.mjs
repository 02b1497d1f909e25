// Scores a `cairn eval recall --json` report by class: the case id's prefix (same, xl, para, zhx, notrig,
// neg) and, across classes, the tags `xl` (cross-language) and `notrig` (card has no triggers).
// Usage: node evals/score-by-class.mjs evals/cairn-bilingual.json report.json
import fs from 'node:fs'

const [suiteFile, reportFile] = process.argv.slice(2)
const suite = JSON.parse(fs.readFileSync(suiteFile, 'utf8'))
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'))
// A failing run (exit 6) puts the result under error.data, a passing one under data.
const result = report.ok ? report.data : report.error.data
const tags = new Map(suite.cases.map(c => [c.id, c.tags ?? []]))
const rows = new Map()
const add = (key, c) => {
  const r = rows.get(key) ?? {passed: 0, total: 0, unexpected: 0}
  r.total++
  if (c.passed) r.passed++
  if (c.unexpected_hits.length) r.unexpected++
  rows.set(key, r)
}
for (const c of result.cases) {
  add(`class ${c.id.split('-')[0]}`, c)
  for (const t of ['xl', 'notrig']) if (tags.get(c.id)?.includes(t)) add(`tag ${t}`, c)
}
for (const c of result.cases) add('overall', c)
console.log('| group | passed / total | cases recalling an unexpected card |')
console.log('|---|---|---|')
for (const [k, r] of rows) console.log(`| ${k} | ${r.passed} / ${r.total} | ${r.unexpected} |`)
const positives = result.cases.filter(c => c.expected.length)
console.log(`\npositive cases that recall nothing: ${positives.filter(c => !c.recalled.length).length} of ${positives.length}`)
