// Precomputes the lexicon's forms table (src/recall/match/expand.ts formsText) from the shipped
// data: data/lexicon/cedict.tsv and glossary.yaml → data/lexicon/forms.tsv (generated, not committed,
// shipped in the package). `npm run build` runs it after tsc, since the forms are stems of the
// tokenizer in dist/. Its version is a hash of the inputs, so an index built with older data is rebuilt.
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const {shippedTranslator} = await import(path.join(root, 'dist/recall/lexicon.js'))
const {lexiconDataFile} = await import(path.join(root, 'dist/recall/lexicon-version.js'))
const {formsText} = await import(path.join(root, 'dist/recall/match/expand.js'))
const {translator, version} = await shippedTranslator({compiled: false})
fs.writeFileSync(lexiconDataFile('forms.tsv'), formsText(translator, version))
