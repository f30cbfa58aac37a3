import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * For tests that run the built server (`node server.js`): builds it first when there is no build
 * yet, so such a test also runs on a fresh checkout. An existing build is used as it is.
 */
export function buildServerIfMissing(): void {
  if (fs.existsSync(path.join(ROOT, "build/server/index.js"))) return;
  const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
}
