import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter(keep);
}

describe("decision records", () => {
  const records = filesUnder("docs/decisions", (file) => file.endsWith(".md"));

  it("exist", () => {
    expect(records.length).toBeGreaterThan(0);
  });

  it.each(records)("%s carries a date and a status under its title", (file) => {
    const [title, , stamp] = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    expect(title).toMatch(/^# \d+\. \S/);
    expect(stamp).toMatch(/^Date: \d{4}-\d{2}-\d{2} · Status: (proposed|accepted|deprecated|superseded by \d+)$/);
  });

  it("are numbered once each", () => {
    const numbers = records.map((file) => path.basename(file).slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
