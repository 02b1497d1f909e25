import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The real clients run apart: npm run test:clients.
    exclude: ['test/clients/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: a single worker on 2 cores. The tests
    // mostly wait on git child processes, so one worker per core keeps both cores busy.
    maxWorkers: '100%',
  },
})
