import { fileURLToPath } from "node:url";

/**
 * `#app/…`, `#server/…` and `#tests/…` name a module by where it lives in the
 * project rather than by a chain of `../`. tsconfig.json's `paths` says the
 * same to TypeScript, tsx and Playwright; this says it to Vite and Vitest.
 */
export const PROJECT_ALIASES = Object.fromEntries(
  ["app", "server", "isomorphic", "page-kit", "tests"].map((dir) => [`#${dir}`, fileURLToPath(new URL(`./${dir}`, import.meta.url))]),
);
