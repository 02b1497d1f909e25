#!/usr/bin/env node
// The prompt matcher path without oclif or the hook runner, for the recall benchmarks and for
// debugging. Agents use `cairn hook user-prompt-submit --agent <client>` instead. Usage:
// prompt-recall.js [--json] [--paths P...] "<prompt>"; with no prompt argument it reads stdin,
// either a hook payload ({"prompt": ..., "cwd": ...}: the store is the one around its cwd) or plain text.
import {promptRecall} from '../dist/app/prompt-recall.js'
import {runUseCase} from '../dist/app/use-case.js'
import {createContext} from '../dist/context.js'

const args = process.argv.slice(2)
const json = args.includes('--json')
const paths = []
const words = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json') continue
  if (args[i] === '--paths') {
    while (i + 1 < args.length && !args[i + 1].startsWith('--')) paths.push(args[++i])
    continue
  }
  words.push(args[i])
}

async function readPrompt() {
  if (words.length) return {prompt: words.join(' ')}
  const chunks = []
  for await (const c of process.stdin) chunks.push(c)
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    const payload = JSON.parse(text)
    if (payload && typeof payload.prompt === 'string') return {prompt: payload.prompt, cwd: typeof payload.cwd === 'string' ? payload.cwd : undefined}
  } catch {}
  return {prompt: text}
}

// The same envelope and exit codes as the CLI; --json puts the envelope on stdout, errors included.
const outcome = await runUseCase(async () => {
  const {prompt, cwd} = await readPrompt()
  // As the hook: only the cards that can be shown are judged (considered counts those).
  const r = await promptRecall(createContext(cwd ? {cwd} : {}), {prompt, paths, bounded: true})
  return {data: {text: r.text, cards: r.cards, total: r.total, considered: r.considered}, text: r.text}
})
if (json) process.stdout.write(`${JSON.stringify(outcome.envelope)}\n`)
else if (!outcome.envelope.ok) process.stderr.write(`cairn prompt-recall: ${outcome.envelope.error.message}\n`)
else if (outcome.text) process.stdout.write(`${outcome.text}\n`)
process.exitCode = outcome.exitCode
