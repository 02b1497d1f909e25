import {defineConfig} from 'vitest/config'

/** The real-client tests (npm run test:clients): slow, and apart from npm test. */
export default defineConfig({
  test: {
    include: ['test/clients/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 1,
  },
})
