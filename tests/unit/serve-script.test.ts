import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const serve: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.serve;

describe("npm run serve", () => {
  it("keeps V8's heap within 1.5 times what is live and the young generation small (bench/README.md, Memory)", () => {
    expect(serve).toMatch(/\bnode\b.*--heap-growing-percent=50\b/);
    expect(serve).toMatch(/\bnode\b.*--max-semi-space-size=8\b/);
  });

  it("passes node only flags this Node accepts, so a Node upgrade that drops one fails here, not at start", () => {
    const flags = serve.split(" ").filter((word) => word.startsWith("--"));
    const result = spawnSync(process.execPath, [...flags, "-e", "0"], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
