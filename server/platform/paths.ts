import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's root folder, found by walking up to package.json. Works the
 * same from the TypeScript sources (tests) and from the bundle in build/.
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

const root = findProjectRoot();

export function projectPath(...segments: string[]): string {
  return path.join(root, ...segments);
}
