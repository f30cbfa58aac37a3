import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exists, lintMessages, missingPaths, pathsNamedIn } from "#tests/support/doc-paths";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("every path the docs, the READMEs and the lint messages name exists", () => {
  it("docs/, every README.md and eslint.config.js's messages send no one to a path that is gone (file:line path)", () => {
    expect(missingPaths(ROOT)).toEqual([]);
  });

  it("every `npm run` script the READMEs and docs name is in package.json", () => {
    const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as object);
    const files = ["README.md", "bench/README.md", "docs/ARCHITECTURE.md", ...fs.readdirSync(path.join(ROOT, "docs/decisions")).map((name) => `docs/decisions/${name}`)];
    const unknown = files.flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(/npm run ([\w:-]+)/g)]
        .map((match) => match[1]!)
        .filter((script) => !scripts.includes(script))
        .map((script) => `${file}: npm run ${script}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe("what counts as a named path", () => {
  const named = (text: string, shortNameBase: string | null = null) => pathsNamedIn(text, "x.md", "docs", shortNameBase).map((found) => found.path);

  it("a token from a project root folder, in backticks or in a sentence, without what ends the sentence", () => {
    expect(named("See `server/platform/errors.ts`, and tests/e2e/fuzz.spec.ts.\nAlso server/main/.")).toEqual([
      "server/platform/errors.ts",
      "tests/e2e/fuzz.spec.ts",
      "server/main/",
    ]);
  });

  it("not a URL's path, an address of the app, or a folder outside the project", () => {
    expect(named("open http://localhost:3000/app/pro or /app/payments/setup; `shared/DESIGN.md`; bio.localhost:3000/mayamakes")).toEqual([]);
  });

  it("an alias, a root file in backticks, and a Markdown link relative to the file", () => {
    expect(named("from #page-kit/respond.server; `vite.config.ts`; [ADR 14](decisions/0014-errors-shown-in-place.md#context) and [site](https://example.com)")).toEqual([
      "#page-kit/respond.server",
      "vite.config.ts",
      "docs/decisions/0014-errors-shown-in-place.md",
    ]);
  });

  it("in a folder's README, a short name in backticks is in that folder", () => {
    expect(named("`intake.ts`, `handlers/` and `server/main/app.ts`; `npm run dev`", "server/features/payment-webhooks")).toEqual([
      "server/main/app.ts",
      "server/features/payment-webhooks/intake.ts",
      "server/features/payment-webhooks/handlers/",
    ]);
  });

  it("a line number points at the line that names the path", () => {
    expect(pathsNamedIn("one\ntwo `server/gone.ts`\n", "README.md", ".")).toEqual([{ file: "README.md", line: 2, path: "server/gone.ts" }]);
  });

  it("lint messages are read from eslint.config.js's message strings, each at its line", () => {
    expect(lintMessages('const A = {\n  message: "Use \\"x\\" from server/main/app.ts.",\n};')).toEqual([{ text: 'Use "x" from server/main/app.ts.', line: 2 }]);
  });
});

describe("whether a named path exists", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "doc-paths-"));
  fs.mkdirSync(path.join(root, "server/platform"), { recursive: true });
  fs.mkdirSync(path.join(root, "content/pages"), { recursive: true });
  fs.writeFileSync(path.join(root, "server/platform/errors.ts"), "");
  fs.writeFileSync(path.join(root, "content/pages/about.md"), "");

  it("a file, a folder, and an alias with or without its extension", () => {
    expect(["server/platform/errors.ts", "server/platform/", "#server/platform/errors", "#server/platform/errors.ts"].map((named) => exists(root, named))).toEqual([true, true, true, true]);
    expect(["server/platform/gone.ts", "server/gone/", "#server/platform/gone"].map((named) => exists(root, named))).toEqual([false, false, false]);
  });

  it("a glob must match at least one file; a placeholder names none and is never missing", () => {
    expect(["content/**/*.md", "content/pages/*.md", "server/platform/*.ts"].map((named) => exists(root, named))).toEqual([true, true, true]);
    expect(["content/*.md", "server/platform/*.tsx"].map((named) => exists(root, named))).toEqual([false, false]);
    expect(["server/<domain>/", "media/photos/{id}.webp", "#server/…"].map((named) => exists(root, named))).toEqual([true, true, true]);
  });
});
