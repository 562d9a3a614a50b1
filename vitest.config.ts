import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "tools/**/*.test.ts", "generated/**/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Prism, the generator and the packed-package tests start processes: two cores, so keep it modest.
    maxWorkers: 2,
  },
});
