import { PROJECT_ALIASES } from "./import-aliases.ts";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: PROJECT_ALIASES,
  },
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "isomorphic/**/*.test.ts", "page-kit/**/*.test.ts", "tests/unit/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite instances are memory-hungry; two cores run two files at a time.
    maxWorkers: 2,
  },
});
