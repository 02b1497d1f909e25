// ESLint checks what Prettier cannot: the size of functions, the number of parameters, and circles
// between modules. It enables no preset (eslint:recommended, typescript-eslint's recommended):
// those would bring hundreds of findings about style or taste, and `tsc --noEmit` (npm run
// typecheck) already catches what they catch of substance. Formatting is Prettier's alone
// (.prettierrc.json); eslint-config-prettier, last, turns off any rule that would fight it.
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript'
import prettier from 'eslint-config-prettier'
import importX from 'eslint-plugin-import-x'
import {defineConfig} from 'eslint/config'
import tseslint from 'typescript-eslint'

/** Function size: 80 lines of code, blank lines and comments not counted (they cost a reader little). */
const maxLines = ['error', {max: 80, skipBlankLines: true, skipComments: true}]

export default defineConfig(
  {
    // Built output, content shipped or compared as it is (templates/, data/, docs/, fixtures),
    // and folders tests or benchmarks make as they run. node_modules/ is ignored by default.
    ignores: [
      'dist/',
      'coverage/',
      'data/',
      'templates/',
      'docs/',
      'evals/',
      'bench/results/',
      'test/fixtures/',
      'test/.*/',
      'oclif.manifest.json',
    ],
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    languageOptions: {
      // typescript-eslint's parser reads the .js and .mjs files as well; no type information
      // (parserOptions.project) is asked for: none of the rules below needs it, and it would
      // make a run several times slower.
      parser: tseslint.parser,
      ecmaVersion: 2022,
      sourceType: 'module',
    },
    linterOptions: {reportUnusedDisableDirectives: 'error'},
    plugins: {'@typescript-eslint': tseslint.plugin, 'import-x': importX},
    settings: {
      // Imports are written as the compiled files (`./x.js` for ./x.ts, module NodeNext): the
      // TypeScript resolver maps them back to the sources, through tsconfig.json.
      'import-x/resolver-next': [createTypeScriptImportResolver({project: 'tsconfig.json'})],
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': {'@typescript-eslint/parser': ['.ts', '.js', '.mjs']},
      // bench/ and scripts/ load the build (dist/): its modules mirror src/, which is checked
      // itself, so they are not followed.
      'import-x/ignore': ['/dist/', 'node_modules'],
    },
    rules: {
      'max-lines-per-function': maxLines,
      // At most 5 parameters; past that, an options object names them at the call. Five, not
      // four: the hot paths (the index reader, the overview's drawing) pass a few numbers
      // positionally where an object per call would cost. The typescript-eslint version does
      // not count a TypeScript `this: void` parameter.
      '@typescript-eslint/max-params': ['error', {max: 5, countVoidThis: false}],
      // No module loads another that loads it back, directly or through others (dynamic
      // imports count too, as they do in test/layering.test.ts' importCircles). Imports of types
      // only (`import type`, or every specifier `type`) are erased by the compiler, so they are
      // ignored, as importCircles ignores them. Packages are not followed.
      'import-x/no-cycle': ['error', {ignoreExternal: true}],
    },
  },
  {
    // Tests: a vitest `describe` callback holds all the cases of a file or a topic, so its length
    // says nothing about how hard one case is to read; the function-size limit is off for test/.
    // Parameters and circles are checked as in src/ (test helpers are code too).
    files: ['test/**'],
    rules: {'max-lines-per-function': 'off'},
  },
  {
    // A benchmark scenario's run() is the whole measurement, step after step, as its header
    // describes it: like a describe block, its length says little. Parameters and circles are
    // checked as in src/.
    files: ['bench/**'],
    rules: {'max-lines-per-function': 'off'},
  },
  // scripts/ (the build steps and the generators of data/) get the same rules as src/. Their
  // top-level code is no function, so a script's length is not limited, only its functions'.
  prettier,
)
