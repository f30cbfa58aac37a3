import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { PROJECT_ALIASES } from "./import-aliases.ts";
import { precompressAssets } from "./scripts/precompress-assets.ts";
import { defineConfig } from "vite";

// The SSR bundle's entry is our own HTTP server (server/main/entry.ts), so
// the server, the domain code and the React Router build share one module
// graph and one database handle.
export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: PROJECT_ALIASES,
  },
  build: {
    rollupOptions: isSsrBuild ? { input: "./server/main/entry.ts" } : undefined,
  },
  plugins: [tailwindcss(), reactRouter(), precompressAssets()],
}));
