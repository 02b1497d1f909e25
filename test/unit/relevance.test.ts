import {describe, expect, it} from 'vitest'
import {deriveRelevancePaths, normalizeEditPath} from '../../src/domain/relevance.js'

const narrow = (paths: string[], root?: string) => deriveRelevancePaths(paths, {scope: 'narrow', root})

describe('deriveRelevancePaths: seed 000 worked example', () => {
  const edits = [
    'packages/server/src/services/extract.ts',
    'packages/server/src/services/review.ts',
    'packages/server/src/services/promote.ts',
    'packages/cli/src/commands/plan.ts',
    'README.md',
  ]

  it('narrow: groups the services, keeps plan.ts literal, drops README.md', () => {
    expect(narrow(edits)).toEqual(['packages/server/src/services/**/*.ts', 'packages/cli/src/commands/plan.ts'])
  })

  it('broad: always []', () => {
    expect(deriveRelevancePaths(edits, {scope: 'broad'})).toEqual([])
    expect(deriveRelevancePaths(['src/a.ts'], {scope: 'broad', root: '/repo'})).toEqual([])
  })
})

describe('deriveRelevancePaths: steps', () => {
  it('dedupes, including paths that differ only by ./ or backslashes', () => {
    expect(narrow(['src/app.ts', './src/app.ts', 'src\\app.ts', 'src/app.ts'])).toEqual(['src/app.ts'])
  })

  it('keeps first-seen order between groups and literals', () => {
    expect(narrow(['docs/guide.md', 'src/lib/a.ts', 'test/x.test.ts', 'src/lib/b.ts'])).toEqual([
      'docs/guide.md',
      'src/lib/**/*.ts',
      'test/x.test.ts',
    ])
  })

  it('blacklists repo-root single files only', () => {
    const root = [
      'README.md',
      'package.json',
      'package-lock.json',
      'pnpm-lock.yaml',
      'tsconfig.json',
      '.gitignore',
      'LICENSE',
      'CHANGELOG.md',
    ]
    expect(narrow(root)).toEqual([])
    expect(narrow(['packages/cli/README.md', 'packages/cli/package.json', 'vitest.config.ts'])).toEqual([
      'packages/cli/**',
      'vitest.config.ts',
    ])
  })

  it('makes absolute paths under the root relative and drops paths outside it', () => {
    expect(
      narrow(
        [
          '/repo/src/config/merge.ts',
          '/elsewhere/notes.md',
          '/repo2/src/x.ts',
          '/repo/../etc/passwd',
          '../outside.ts',
          '/repo/docs/guide.md',
        ],
        '/repo',
      ),
    ).toEqual(['src/config/merge.ts', 'docs/guide.md'])
  })

  it('keeps a directory whose name merely starts with ".."', () => {
    expect(normalizeEditPath('/repo/..cache/x.ts', '/repo')).toBe('..cache/x.ts')
    expect(normalizeEditPath('..cache/x.ts')).toBe('..cache/x.ts')
    expect(normalizeEditPath('/repo/..', '/repo')).toBeUndefined()
  })

  it('drops absolute paths when no root is known, and the root itself', () => {
    expect(narrow(['/repo/src/a.ts', 'src/b.ts'])).toEqual(['src/b.ts'])
    expect(narrow(['/repo', '/repo/', '  ', ''], '/repo')).toEqual([])
  })

  it('groups files with the same name as <prefix>/**/<name>', () => {
    expect(narrow(['apps/web/src/index.ts', 'apps/api/src/index.ts'])).toEqual(['apps/**/index.ts'])
    expect(narrow(['src/a/Button.test.tsx', 'src/b/Button.test.tsx', 'lib/x.ts'])).toEqual([
      'src/**/Button.test.tsx',
      'lib/x.ts',
    ])
  })

  it('groups mixed names and extensions as <prefix>/**', () => {
    expect(narrow(['src/hooks/stop.ts', 'src/hooks/stop.json'])).toEqual(['src/hooks/**'])
    expect(narrow(['src/a/Button.tsx', 'src/b/Button.tsx', 'src/c/x.ts'])).toEqual(['src/**'])
  })

  it('generalises at most two levels up, and needs a group of two', () => {
    expect(narrow(['a/b/c/d/x.ts', 'a/b/e/f/y.ts'])).toEqual(['a/b/**/*.ts'])
    expect(narrow(['a/b/c/d/x.ts', 'a/e/f/g/y.ts'])).toEqual(['a/b/c/d/x.ts', 'a/e/f/g/y.ts'])
    expect(narrow(['src/only.ts'])).toEqual(['src/only.ts'])
  })

  it('groups files at different depths under their deepest shared directory', () => {
    expect(narrow(['src/a/x.ts', 'src/a/b/y.ts', 'lib/z.ts'])).toEqual(['src/a/**/*.ts', 'lib/z.ts'])
  })

  it('never groups root-level files', () => {
    expect(narrow(['vite.config.ts', 'vitest.config.ts'])).toEqual(['vite.config.ts', 'vitest.config.ts'])
  })
})
