#!/usr/bin/env node
// `cairn hook` is what an agent runs on every prompt and tool call: it takes a fast path that
// loads neither oclif nor any module the event does not use, bundled into a few files
// (scripts/bundle-hook.mjs), and it always exits 0 (fail open).
const args = process.argv.slice(2)
if (args[0] === 'hook' && !args.some(a => a === '--help' || a === '-h')) {
  try {
    const {main} = await import('../dist/hook/run.js')
    await main(args.slice(1))
  } catch {
    // Even when cairn itself cannot load: a Codex Stop hook that exits 0 must print JSON.
    const codexStop = args.includes('stop') && args.some((a, i) => a === '--agent=codex' || (a === '--agent' && args[i + 1] === 'codex'))
    if (codexStop) process.stdout.write('{}\n', () => process.exit(0))
    else process.exit(0)
  }
} else {
  // oclif checks the Node version against its own engines (>=18, looser than cairn's >=20.19) as it loads, by
  // loading semver: some fifty modules, the largest share of its start-up. The check is skipped while it loads;
  // a value the user set is kept.
  const engineWarning = process.env.OCLIF_DISABLE_ENGINE_WARNING
  process.env.OCLIF_DISABLE_ENGINE_WARNING = 'true'
  const {execute} = await import('@oclif/core')
  if (engineWarning === undefined) delete process.env.OCLIF_DISABLE_ENGINE_WARNING
  else process.env.OCLIF_DISABLE_ENGINE_WARNING = engineWarning
  await execute({dir: import.meta.url})
}
