// `cairn hook` runs before every prompt and tool call, so its start-up is paid many times an hour.
// Node's ESM loader costs about a millisecond per module (resolve, read, compile), and the prompt
// hook loads about fifty of cairn's own: bundled into a few files they start about 15 ms sooner
// (issue 15, measured at 10,000 cards). So the build bundles the hook's entry, and the two worker
// entries it may start, into dist/hook/ (bin/run.js loads dist/hook/run.js). Packages stay external,
// loaded from node_modules as before, so the import traces of the tests still see what loads; lazy
// imports become chunks, still loaded only where needed. dist/hook/ sits as deep as dist/store/package-files.js and dist/recall/, so
// every `new URL('../../…', import.meta.url)` in the bundled code points at the same file.
import {build} from 'rolldown'

await build({
  input: ['dist/agents/run.js', 'dist/recall/rebuild-worker.js', 'dist/recall/pool-worker.js'],
  platform: 'node',
  external: id => !id.startsWith('.') && !id.startsWith('/'),
  logLevel: 'warn',
  output: {dir: 'dist/hook', format: 'esm'},
})
