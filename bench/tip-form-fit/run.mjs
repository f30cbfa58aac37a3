// How much of the tip form a fan sees on a phone without scrolling.
//
//   npm run build && node bench/tip-form-fit/run.mjs [--root <another built checkout>] [--screenshot <file.png>]
//
// Starts the built server of `--root` (default: this checkout) on a fresh embedded database in a
// temporary folder (migrations and the demo seed, so the demo page /mayamakes takes tips on the
// payment sandbox), opens its tip checkout in Chromium as a 390×844 phone (touch, device pixel
// ratio 3) and prints, in CSS pixels from the top of the page: the page's height, the form's
// top, bottom and height, and the bottom edges of the amount chips, the message box and the pay
// button. The fold is the viewport's height, 844: a part is above the fold when its bottom is.
// See bench/README.md ("Tip form on a phone").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startBuiltServer } from "../lib/app-server.mjs";

const args = process.argv.slice(2);
const rootArg = args.indexOf("--root");
const ROOT = path.resolve(rootArg >= 0 ? args[rootArg + 1] : path.join(import.meta.dirname, "../.."));
const shotArg = args.indexOf("--screenshot");
const SCREENSHOT = shotArg >= 0 ? path.resolve(args[shotArg + 1]) : null;
const PHONE = { width: 390, height: 844 };
const ENDING = "mayamakes";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-tip-fit-"));
const app = await startBuiltServer({ root: ROOT, dataDir, env: (port) => ({ BIO_ORIGIN: `http://bio.localhost:${port}` }) });
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const response = await page.goto(`${app.base}/app/payments/checkout?page=${ENDING}&kind=tip`);
  if (response?.status() !== 200) throw new Error(`checkout answered ${response?.status()}`);
  // Runs in the page: its window is globalThis there.
  const figures = await page.evaluate(() => {
    const { document, scrollY } = globalThis;
    const box = (element) => {
      if (!element) return null;
      const rect = element.getBoundingClientRect();
      return { top: Math.round(rect.top + scrollY), bottom: Math.round(rect.bottom + scrollY), height: Math.round(rect.height) };
    };
    const form = document.querySelector("main form");
    const chips = document.querySelector('main form [aria-label="Suggested amounts"]');
    const message = document.querySelector('main form textarea[name="message"]');
    const button = [...document.querySelectorAll("main form button[type=submit]")].find((b) => /Proceed to Checkout/.test(b.textContent ?? ""));
    return {
      pageHeight: document.documentElement.scrollHeight,
      form: box(form),
      chipsBottom: box(chips)?.bottom ?? null,
      messageBottom: box(message)?.bottom ?? null,
      buttonBottom: box(button)?.bottom ?? null,
    };
  });
  const fold = PHONE.height;
  const above = (bottom) => (bottom === null ? "missing" : bottom <= fold ? "above the fold" : `${bottom - fold} px below the fold`);
  console.log(`checkout: ${ROOT}`);
  console.log(`viewport ${PHONE.width}×${PHONE.height} (fold at ${fold} px), /app/payments/checkout?page=${ENDING}&kind=tip`);
  console.log(`page height        ${figures.pageHeight} px`);
  console.log(`tip form           ${figures.form?.height} px tall (top ${figures.form?.top}, bottom ${figures.form?.bottom})`);
  console.log(`amount chips bottom ${figures.chipsBottom} px: ${above(figures.chipsBottom)}`);
  console.log(`message box bottom ${figures.messageBottom} px: ${above(figures.messageBottom)}`);
  console.log(`pay button bottom  ${figures.buttonBottom} px: ${above(figures.buttonBottom)}`);
  console.log(JSON.stringify(figures));
  // What the phone shows before any scrolling.
  if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT });
  await context.close();
} finally {
  await browser.close();
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
