import fs from "node:fs";
import path from "node:path";
import type { Router } from "express";
import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { HOOK_PATHS, hookPath, TEST_HOOKS_PREFIX } from "./contract";
import { testHooksRouter, type TestHooksDeps } from "./router";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

type Layer = { route?: { path: string }; handle?: Router & { stack?: Layer[] } };

/** Every path the router answers, its nested routers included. */
function answeredPaths(stack: Layer[]): string[] {
  return stack.flatMap((layer) => (layer.route ? [layer.route.path] : layer.handle?.stack ? answeredPaths(layer.handle.stack) : []));
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

describe("the test hooks router", () => {
  const deps = {
    config: loadConfig({}),
    sessionSecret: "a-session-secret-long-enough-for-the-unsubscribe-key",
    pages: () => (_req: unknown, _res: unknown, next: () => void) => next(),
  } as unknown as TestHooksDeps;
  const router = testHooksRouter(deps) as unknown as { stack: Layer[] };

  it("answers every hook of the contract, and nothing the contract does not name", () => {
    expect(new Set(answeredPaths(router.stack))).toEqual(new Set(Object.values(HOOK_PATHS)));
  });

  it("builds the addresses the guard covers", () => {
    expect(hookPath("notify", { do: "send", n: 3 })).toBe(`${TEST_HOOKS_PREFIX}/notify?do=send&n=3`);
    expect(hookPath("toast", { kind: "error", message: "That did not work", to: undefined })).toBe(`${TEST_HOOKS_PREFIX}/toast?kind=error&message=That+did+not+work`);
  });
});

describe("test hooks stay out of the product", () => {
  it("the route table has no test route", () => {
    expect(read("app/routes.ts")).not.toMatch(/__test|test-hooks/);
  });

  it("only the HTTP app, which mounts the router when enabled, imports server/tools/test-hooks", () => {
    const importers = [...sourceFiles("app"), ...sourceFiles("server")]
      .filter((file) => !file.startsWith("server/tools/test-hooks/") && !/\.test\.tsx?$/.test(file))
      .filter((file) => read(file).includes("#server/tools/test-hooks/"));
    expect(importers).toEqual(["server/main/app.ts"]);
  });

  it("every hook is named in server/tools/README.md", () => {
    const hookList = read("server/tools/README.md");
    for (const hookAddress of Object.values(HOOK_PATHS)) expect(hookList, hookAddress).toContain(`\`${hookAddress.slice(1)}\``);
  });
});
