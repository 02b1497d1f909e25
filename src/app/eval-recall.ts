import path from 'node:path'
import {CairnError, validationError} from '../domain/errors.js'
import {parseJson} from '../domain/structured.js'
import type {Context} from '../context.js'
import type {InputFiles} from '../store/files/input.js'
import {openStores} from './stores.js'
import {importOme} from './import-ome.js'
import {init} from './init.js'
import {promptRecall} from './prompt-recall.js'

/**
 * Runs an OME-format recall suite: its cards go into a throwaway store (temp git repo, HOME and
 * CAIRN_HOME inside it) through `import ome --activate`, then every prompt runs through
 * promptRecall, the exact path of the prompt hook. A case passes when every expected card is
 * recalled, no unexpected card is, and with expectNoMatches nothing is.
 */
export interface EvalCase {
  id: string
  passed: boolean
  prompt: string
  expected: string[]
  recalled: string[]
  unexpected_hits: string[]
  missing: string[]
}

export interface EvalResult {
  suite: string
  total: number
  passed: number
  failed: number
  cases: EvalCase[]
}

interface SuiteCase {
  id: string
  prompt: string
  expectedCards?: string[]
  unexpectedCards?: string[]
  expectNoMatches?: boolean
}

export async function evalRecall(
  ctx: Context,
  input: {suite: string; cards?: string; onCase?: (c: EvalCase) => void},
): Promise<EvalResult> {
  const stores = openStores(ctx)
  const inputFiles = await stores.input()
  const suiteFile = path.resolve(ctx.cwd, input.suite)
  const suite = readSuite(inputFiles, suiteFile, input.suite)
  const cardsFile = input.cards
    ? path.resolve(ctx.cwd, input.cards)
    : suite.experiencesFile
      ? path.resolve(path.dirname(suiteFile), suite.experiencesFile)
      : suiteFile.replace(/(\.json)?$/, '.cards.json')
  if (!inputFiles.exists(cardsFile))
    throw new CairnError(
      'not_found',
      `${input.cards ? 'The --cards file' : "The suite's cards file"} ${path.relative(ctx.cwd, cardsFile)} does not exist. Fix: check the path`,
    )
  const scratch = await stores.scratchRepo({name: 'eval', actor: 'cairn-eval', now: ctx.now()})
  try {
    const evalCtx = scratch.ctx
    await init(evalCtx)
    ctx.progress(`importing ${path.basename(cardsFile)}`)
    const imported = await importOme(evalCtx, {path: cardsFile, activate: true})
    // A suite scored without some of its cards would mislead: every card must import.
    if (imported.failed.length)
      throw validationError(
        imported.failed.flatMap(f => f.issues),
        `${path.basename(cardsFile)}: cards not imported`,
      )
    const cases: EvalCase[] = []
    for (const [i, c] of suite.cases.entries()) {
      ctx.progress(`case ${i + 1}/${suite.cases.length}: ${c.id}`)
      const r = await promptRecall(evalCtx, {prompt: c.prompt})
      const recalled = r.cards.map(x => x.id)
      const expected = c.expectedCards ?? []
      const missing = expected.filter(id => !recalled.includes(id))
      const unexpected = c.expectNoMatches ? recalled : recalled.filter(id => (c.unexpectedCards ?? []).includes(id))
      const one = {
        id: c.id,
        passed: missing.length === 0 && unexpected.length === 0,
        prompt: c.prompt,
        expected,
        recalled,
        unexpected_hits: unexpected,
        missing,
      }
      cases.push(one)
      input.onCase?.(one)
    }
    ctx.progress('') // clears the progress line before the report
    const passed = cases.filter(c => c.passed).length
    return {
      suite: suite.name ?? path.basename(suiteFile, '.json'),
      total: cases.length,
      passed,
      failed: cases.length - passed,
      cases,
    }
  } finally {
    scratch.remove()
  }
}

function readSuite(
  inputFiles: InputFiles,
  file: string,
  label: string,
): {name?: string; experiencesFile?: string; cases: SuiteCase[]} {
  const data = parseJson(inputFiles.readText(file, label), label)
  const suite = data as {name?: string; experiencesFile?: string; cases?: unknown}
  if (!suite || !Array.isArray(suite.cases))
    throw validationError([
      {
        file: label,
        field: 'cases',
        message: 'is required (an array of cases)',
        fix: 'give {"cases": [{"id", "prompt", "expectedCards"}]}',
      },
    ])
  suite.cases.forEach((c, i) => {
    const k = c as SuiteCase
    if (typeof k?.id !== 'string' || typeof k?.prompt !== 'string')
      throw validationError([
        {
          file: label,
          field: `cases[${i}]`,
          message: 'needs a string id and prompt',
          fix: 'give each case "id" and "prompt"',
        },
      ])
  })
  return suite as {name?: string; experiencesFile?: string; cases: SuiteCase[]}
}
