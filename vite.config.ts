import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { PROJECT_ALIASES } from "./import-aliases.ts";
import { precompressAssets } from "./scripts/precompress-assets.ts";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: {
    alias: PROJECT_ALIASES,
  },
  // The SSR bundle's entry is our own HTTP server (server/main/entry.ts), so
  // the server, the domain code and the React Router build share one module
  // graph and one database handle.
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/main/entry.ts" } } },
  },
  // `npm run dev`: the browser's dependencies are found by scanning every route at start and
  // pre-bundled then, not discovered one page at a time (which re-bundled and reloaded the page,
  // holding back the first edit for a minute and more). The scan also follows the loaders' imports,
  // so server packages are pre-bundled too: a few seconds at start, beside the server's own start;
  // left out, Vite's browser side still met them after the first page and re-bundled. Measured in
  // bench/README.md (Development loop).
  optimizeDeps: { entries: ["app/root.tsx", "app/routes/**/*.tsx", "app/components/**/*.tsx"] },
  plugins: [tailwindcss(), reactRouter(), precompressAssets()],
});
