// secretlint, as the secret scan of every write loads it (src/store/cards/secrets.ts, on first use): its
// profiler, its core and the recommended preset. Node loads them as some forty files; the build replaces
// this file's output with the three bundled into one file (scripts/bundle-vendor.mjs), about 20 ms of CPU
// less. One bundle, so the profiler the scan silences is the one the core marks.
export {secretLintProfiler} from '@secretlint/profiler'
export {lintSource} from '@secretlint/core'
export {creator} from '@secretlint/secretlint-rule-preset-recommend'
