// The development loop, timed: `npm run dev` to the first page (on a new data folder and no Vite
// cache, as in a fresh clone, then again on the folder it made), a saved edit to a route component
// to the browser showing it (by HMR: the page is not reloaded), the first time right after the
// fresh start, and a saved edit to server code to the page served again (the process restarts and
// the browser's Vite client reloads). It fails if Vite pre-bundles again after the first page.
// Runs in a copy of the working tree, so the edits never touch the real files. The machine's load
// shows in every figure: run it on a quiet one.
//   node bench/dev-loop/run.mjs
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright";
import { freePort, startProgram, waitUntil } from "../lib/app-server.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const copy = fs.mkdtempSync(path.join(os.tmpdir(), "sg-dev-loop-"));
for (const file of execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root, encoding: "utf8" }).split("\n")) {
  if (!file || !fs.existsSync(path.join(root, file))) continue;
  fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
  fs.copyFileSync(path.join(root, file), path.join(copy, file));
}
// Hard links: a copy in a second, and node_modules inside the copy, where Vite and Node's watcher expect it.
execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(copy, "node_modules")]);
// Vite's own cache is written, not only read: the copy starts without it, as a fresh clone does.
for (const cache of [".vite", ".vite-temp", ".vite-child-compiler"]) fs.rmSync(path.join(copy, "node_modules", cache), { recursive: true, force: true });

const port = await freePort();
const env = { PORT: String(port), DATA_DIR: path.join(copy, "data"), DATABASE_URL: "", LOG_LEVEL: "warn" };
const homeAnswers = async (base) => {
  const response = await fetch(`${base}/`);
  return response.status === 200 && (response.headers.get("content-type") ?? "").startsWith("text/html");
};

async function startDev() {
  const started = performance.now();
  const dev = await startProgram({ command: "npm", args: ["run", "dev"], cwd: copy, port, env, isReady: homeAnswers, group: true });
  return { dev, ms: performance.now() - started };
}

/**
 * Opens /signin in a new tab and waits for Vite's client to connect (no reload first: a fresh start
 * must not need one), replaces the page's heading in the route and times until the tab shows it.
 * Fails if the tab was reloaded instead of updated by HMR.
 */
async function timeRouteEdit(browser, dev, blocked) {
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
  });
  // Pages with `handle = { hydrate: false }` (home, content) ship no JavaScript, so no HMR client:
  // the sign-in page ships it.
  const connected = page.waitForEvent("console", { predicate: (message) => message.text().includes("[vite] connected"), timeout: 120_000 });
  await page.goto(`${dev.base}/signin`, { waitUntil: "networkidle" });
  await connected;
  // A page that reloads loses this; an HMR update keeps it.
  await page.evaluate(() => (globalThis.__devLoopMark = true));

  const route = path.join(copy, "app/routes/auth/signin.tsx");
  const edited = `Sign in (edited ${Date.now()})`;
  const editSaved = performance.now();
  fs.writeFileSync(route, fs.readFileSync(route, "utf8").replace(/>Sign in[^<]*<\/h1>/, `>${edited}</h1>`));
  await page.getByText(edited).waitFor();
  const ms = performance.now() - editSaved;
  if (!(await page.evaluate(() => globalThis.__devLoopMark === true))) throw new Error("the page reloaded: the route edit was not applied by HMR");
  return { page, edited, ms };
}

/** Vite's lines when the browser met a dependency the start-up scan had not pre-bundled. */
function assertNoLateOptimization(dev) {
  const late = dev.output().split("\n").filter((line) => /dependencies optimized|dependency optimized|optimized dependencies changed/.test(line));
  if (late.length > 0) throw new Error(`Vite pre-bundled again after the first page (add the dependency to optimizeDeps in vite.config.ts):\n${late.join("\n")}`);
}

const results = {};
const blocked = [];
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium" });
let dev;
try {
  const first = await startDev();
  dev = first.dev;
  results["npm run dev → first page (new data folder: migrations + demo data; no Vite cache)"] = first.ms;
  const fresh = await timeRouteEdit(browser, dev, blocked);
  results["first route edit after that fresh start → browser shows it"] = fresh.ms;
  assertNoLateOptimization(dev);
  await fresh.page.close();
  await dev.stop();

  const second = await startDev();
  dev = second.dev;
  results["npm run dev → first page (existing data folder)"] = second.ms;
  const { page, edited, ms } = await timeRouteEdit(browser, dev, blocked);
  results["saved route edit → browser shows it"] = ms;

  const serverFile = path.join(copy, "server/platform/http/refusal.ts");
  const serverSaved = performance.now();
  const reloaded = page.waitForEvent("load", { timeout: 180_000 });
  fs.appendFileSync(serverFile, "\n// edited by bench/dev-loop\n");
  await reloaded;
  await page.getByText(edited).waitFor().catch(async (error) => {
    throw new Error(`after the server edit the browser shows ${page.url()}: ${(await page.locator("body").innerText()).slice(0, 300)}`, { cause: error });
  });
  results["saved server edit → page served again (restart + reload)"] = performance.now() - serverSaved;
  if (blocked.length > 0) throw new Error(`the CSP blocked the development loop:\n${blocked.join("\n")}`);
} finally {
  await browser.close();
  if (dev) {
    await dev.stop();
    await waitUntil("the copy's port to close", { isReady: async () => !(await homeAnswers(dev.base).catch(() => false)), output: () => "", timeoutMs: 30_000 });
  }
  fs.rmSync(copy, { recursive: true, force: true });
  // What was measured before a step failed is kept too.
  for (const [what, value] of Object.entries(results)) console.log(`${what}: ${(value / 1000).toFixed(2)} s`);
}
