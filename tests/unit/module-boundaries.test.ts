import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("module boundaries", () => {
  it("no domain module imports seed data: the seed depends on the domain, never the other way round", () => {
    // Only the boot (the composition root, server/main/composition-root.ts) and the seed itself may reach the seed.
    const allowed = (file: string) => file.startsWith(path.join("server", "db", "seed")) || file === path.join("server", "http", "composition-root.ts");
    const offenders = [...sourceFiles("server"), ...sourceFiles("app")]
      .filter((file) => !allowed(file))
      .filter((file) => /from\s+["'](#server\/db\/seed|(\.\.?\/)+(db\/)?seed)(\/[^"']*)?["']/.test(fs.readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
