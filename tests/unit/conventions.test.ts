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

  const LINK = "\\[(\\d{4})\\]\\((\\d{4}-[\\w-]+\\.md)\\)";
  const STAMP = new RegExp(`^Date: \\d{4}-\\d{2}-\\d{2} · Status: (?:accepted(?:; supersedes ${LINK}(?:, ${LINK})*)?|superseded by ${LINK})$`);
  const stampOf = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8").split("\n")[2]!;
  /** The records a stamp links to, as [number, file name]. */
  const linksOf = (stamp: string) => [...stamp.matchAll(new RegExp(LINK, "g"))].map((match) => [match[1]!, match[2]!] as const);

  it.each(records)("%s carries a date and a status under its title: accepted, or superseded by a record that exists", (file) => {
    const [title] = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    expect(title).toMatch(/^# \d+\. \S/);
    expect(Number(title!.slice(2, title!.indexOf("."))), "the title's number is the file's").toBe(Number(path.basename(file).slice(0, 4)));
    const stamp = stampOf(file);
    expect(stamp).toMatch(STAMP);
    for (const [number, linked] of linksOf(stamp)) {
      expect(linked.startsWith(number), `${file} links ${linked} as ${number}`).toBe(true);
      expect(fs.existsSync(path.join(ROOT, "docs/decisions", linked)), `${file} links ${linked}`).toBe(true);
    }
  });

  it("supersede each other both ways: a superseded record names its successor, which names it back", () => {
    const stampByNumber = new Map(records.map((file) => [path.basename(file).slice(0, 4), stampOf(file)]));
    const successorsOf = (stamp: string) => (stamp.includes("superseded by") ? linksOf(stamp).map(([number]) => number) : []);
    const supersededBy = (stamp: string) => (stamp.includes("; supersedes") ? linksOf(stamp).map(([number]) => number) : []);
    const unmatched = [...stampByNumber].flatMap(([own, stamp]) => [
      ...successorsOf(stamp)
        .filter((successor) => !supersededBy(stampByNumber.get(successor) ?? "").includes(own))
        .map((successor) => `${own} says superseded by ${successor}, which does not say it supersedes ${own}`),
      ...supersededBy(stamp)
        .filter((older) => !successorsOf(stampByNumber.get(older) ?? "").includes(own))
        .map((older) => `${own} says it supersedes ${older}, which does not say superseded by ${own}`),
    ]);
    expect(unmatched).toEqual([]);
  });

  it("are never changed in place: a decision that changes is a record of its own that supersedes the old one", () => {
    const amended = records.filter((file) => /\bamend(?:ed|ment)\b/i.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(amended).toEqual([]);
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

  it("names every top folder of the project", () => {
    const topFolders = fs
      .readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !["node_modules", "build", "data", "reports", "test-results", "playwright-report"].includes(entry.name))
      .map((entry) => entry.name);
    expect(topFolders.filter((folder) => !architecture.includes(`\`${folder}/\``))).toEqual([]);
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
