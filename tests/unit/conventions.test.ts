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

describe("docs/ARCHITECTURE.md", () => {
  const architecture = fs.readFileSync(path.join(ROOT, "docs/ARCHITECTURE.md"), "utf8");
  const folders = fs
    .readdirSync(path.join(ROOT, "server"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    // Generated or data-only folders are named through their parent.
    .filter((folder) => !/\/(migrations|meta|data|templates)(\/|$)/.test(folder));

  it.each(folders)("names %s/, so a newcomer finds what it is for", (folder) => {
    expect(architecture).toContain(`${folder}/`);
  });

  it("names no server folder that no longer exists", () => {
    const named = [...architecture.matchAll(/`(server\/[\w/-]+)\/`/g)].map((match) => match[1]!);
    const missing = named.filter((folder) => !fs.existsSync(path.join(ROOT, folder)));
    expect(missing).toEqual([]);
  });

  it("keeps code comments free of issue numbers: a comment says why on its own", () => {
    const code = ["server", "app", "isomorphic", "tests", "scripts", "bench"].flatMap((dir) =>
      filesUnder(dir, (file) => /\.(ts|tsx|mjs)$/.test(file)),
    );
    const citing = code.filter((file) => /\b[Ii]ssues? #?\d+\b/.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(citing).toEqual([]);
  });
});

describe("background work", () => {
  it("keeps interval timers inside the job platform: server code outside server/platform/jobs/ calls no setInterval", () => {
    // Every repeating piece of work has an owner that stops it on shutdown (the job platform, or
    // its `repeat` primitive for per-process ticks like the streams' heartbeats). Tests may time themselves.
    const code = filesUnder("server", (file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith("server/platform/jobs/"));
    const calling = code.filter((file) => /\bsetInterval\s*\(/.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(code.length).toBeGreaterThan(100);
    expect(calling).toEqual([]);
  });
});
