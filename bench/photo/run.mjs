/**
 * Profile photos: upload to first view, memory under concurrent uploads, and a photo served
 * against nginx serving the same file, in one run on the built server (embedded database).
 *
 *   npm run build && flock /tmp/bench.lock node --import tsx bench/photo/run.mjs
 *
 * (tsx only so that the test suite's photo maker, tests/support/photos.ts, makes the photos.)
 *
 * 1. Upload to first view: the demo creator (signed in through the sign-in form) posts a 12 MP,
 *    ~5 MB phone JPEG to the photo form, as a browser without JavaScript would; the clock stops
 *    when a visitor has the bio page and the photo it names (192 px WebP, its 2× size) from the
 *    bio host. Photos alternate, so every upload is a change and the page is drawn again.
 * 2. Memory: the server's resident set (VmRSS, sampled every 50 ms) through waves of 8 uploads
 *    sent at once; flat means the peak of the last wave is no higher than that of the first.
 * 3. Throughput: autocannon against the bio host's photo address and nginx serving the saved
 *    bytes with the same headers, rounds alternating in order. See bench/README.md ("Profile photo").
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBuiltServer } from "../lib/app-server.mjs";
import { startNginx } from "../lib/nginx.mjs";
import { waitForQuiet } from "../lib/quiet.mjs";
import { fetchRaw } from "../lib/requests.mjs";
import { phonePhoto } from "../../tests/support/photos.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const WAVES = Number(process.env.BENCH_WAVES ?? 5);
const CONCURRENT = 8;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DEMO = { email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo" };
const ENDING = "mayamakes";
const HOP_BY_HOP = new Set(["connection", "keep-alive", "date", "transfer-encoding", "content-length"]);

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const median = (values) => quantile(values, 0.5);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

async function signIn(base) {
  const response = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email: DEMO.email, password: DEMO.password, intent: "signin", redirectTo: "/app" }),
  });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
  if (response.status >= 400 || !cookies.includes("session")) throw new Error(`sign-in: ${response.status}`);
  return cookies;
}

async function upload(base, cookie, photo) {
  const form = new FormData();
  form.append("photo", new Blob([photo], { type: "image/jpeg" }), "IMG_0001.JPG");
  const response = await fetch(`${base}/app/account/photo?returnTo=%2Fapp%2Faccount`, { method: "POST", body: form, redirect: "manual", headers: { cookie, Origin: base } });
  if (response.status !== 302 && response.status !== 303) throw new Error(`upload: ${response.status} ${(await response.text()).slice(0, 300)}`);
}

/** What a visitor does next: the page, then the photo it names. Answers the photo's address. */
async function firstView(base, bioHost) {
  const page = await fetchRaw(`${base}/${ENDING}`, { host: bioHost });
  const src = /srcset="[^"]*?(\/media\/photos\/[0-9a-f]{32}-192\.webp) 2x"/.exec(page.body.toString())?.[1];
  if (page.status !== 200 || !src) throw new Error(`bio page: ${page.status}, photo ${src}`);
  const photo = await fetchRaw(`${base}${src}`, { host: bioHost });
  if (photo.status !== 200) throw new Error(`photo: ${photo.status}`);
  return src;
}

function load(url, headers, options) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, headers, ...options }, (error, result) => {
      if (error) return reject(error);
      const bad = result.non2xx + result.errors + result.timeouts;
      if (bad > 0) return reject(new Error(`${url}: ${bad} bad responses`));
      resolve({ rps: result.requests.total / result.duration, p50: result.latency.p50, p97_5: result.latency.p97_5, total: result.requests.total });
    });
  });
}

async function main() {
  const log = (line) => console.log(line);
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("no build: run `npm run build` first");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-photo-"));
  fs.chmodSync(work, 0o755);
  const stops = [];
  try {
    const photos = [await phonePhoto({ seed: 7 }), await phonePhoto({ seed: 11 }), await phonePhoto({ seed: 13 })];
    const app = await startBuiltServer({ root: ROOT, dataDir: path.join(work, "data"), databaseUrl: "", env: (port) => ({ BIO_ORIGIN: `http://bio.localhost:${port}`, TRUST_PROXY: "loopback" }) });
    stops.push(() => app.stop());
    const bioHost = `bio.localhost:${app.port}`;
    const cookie = await signIn(app.base);

    log(`# Profile photo (${new Date().toISOString()})`);
    log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${spawnSync("nginx", ["-v"], { encoding: "utf8" }).stderr.trim()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    log(`Photos: 4032 × 3024 JPEG with EXIF and GPS, ${photos.map((p) => (p.length / 1e6).toFixed(1)).join(", ")} MB`);

    // 1. Upload to first view.
    await upload(app.base, cookie, photos[2]);
    const times = [];
    let shown = "";
    for (let i = 0; i < UPLOADS; i++) {
      const started = performance.now();
      await upload(app.base, cookie, photos[i % 2]);
      const src = await firstView(app.base, bioHost);
      times.push(performance.now() - started);
      if (src === shown) throw new Error("the page still named the old photo");
      shown = src;
    }
    log("");
    log(`Upload to first view, ${UPLOADS} uploads one after another: p50 ${median(times).toFixed(0)} ms, p95 **${quantile(times, 0.95).toFixed(0)} ms**, max ${Math.max(...times).toFixed(0)} ms`);
    const variant = await fetchRaw(`${app.base}${shown}`, { host: bioHost });
    const avif = await fetchRaw(`${app.base}${shown.replace(".webp", ".avif")}`, { host: bioHost });
    log(`The photo at 2× (192 px): WebP ${variant.body.length} bytes, AVIF ${avif.body.length} bytes`);

    // 2. Memory under waves of concurrent uploads.
    const baseline = rssMb(app.pid);
    const peaks = [];
    const settled = [];
    const waveTimes = [];
    for (let wave = 0; wave < WAVES; wave++) {
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(app.pid))), 50);
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => upload(app.base, cookie, photos[(wave + i) % photos.length])));
      waveTimes.push(performance.now() - started);
      clearInterval(sampler);
      peaks.push(peak);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      settled.push(rssMb(app.pid));
    }
    log("");
    log(`Memory (RSS) under ${WAVES} waves of ${CONCURRENT} uploads at once: ${baseline.toFixed(0)} MB before; peak per wave ${peaks.map((p) => p.toFixed(0)).join(", ")} MB; 1 s after each wave ${settled.map((p) => p.toFixed(0)).join(", ")} MB; a wave took ${waveTimes.map((t) => (t / 1000).toFixed(1)).join(", ")} s`);

    // 3. The photo served, against nginx serving the same bytes with the same headers (the waves replaced the photo).
    shown = await firstView(app.base, bioHost);
    const served = await fetchRaw(`${app.base}${shown}`, { host: bioHost });
    const saved = path.join(work, "photo.body");
    fs.writeFileSync(saved, served.body);
    const headers = [];
    for (let i = 0; i < served.rawHeaders.length; i += 2) {
      if (!HOP_BY_HOP.has(served.rawHeaders[i].toLowerCase())) headers.push([served.rawHeaders[i], served.rawHeaders[i + 1]]);
    }
    const nginx = await startNginx(work, [{ path: shown, file: saved, headers }]);
    stops.push(() => nginx.stop());
    const fromNginx = await fetchRaw(`${nginx.base}${shown}`);
    if (!fromNginx.body.equals(served.body)) throw new Error("nginx sends other bytes");
    const sides = [
      { name: "bio host", url: `${app.base}${shown}`, headers: { host: bioHost } },
      { name: "app host", url: `${app.base}${shown}`, headers: {} },
      { name: "nginx", url: `${nginx.base}${shown}`, headers: {} },
    ];
    const results = Object.fromEntries(sides.map((side) => [side.name, []]));
    log("");
    log(`${shown.replace(/[0-9a-f]{32}/, "{id}")}: ${served.body.length} bytes; autocannon ${CONNECTIONS} connections, ~${SECONDS} s per side and round, ${ROUNDS} rounds`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const side of round % 2 ? sides : [...sides].reverse()) {
        const idle = await waitForQuiet();
        const warm = await load(side.url, side.headers, { duration: 1 });
        const result = await load(side.url, side.headers, { amount: Math.max(1000, Math.round(warm.rps * SECONDS)) });
        results[side.name].push(result.rps);
        log(`   round ${round}, ${side.name} (idle before ${Math.round(idle * 100)} %): ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p97.5 ${result.p97_5} ms`);
      }
    }
    log("");
    log("| server | req/s (median) | ÷ nginx (median of rounds) | rounds |");
    log("|---|---:|---:|---|");
    for (const side of sides) {
      const ratios = results[side.name].map((rps, round) => rps / results.nginx[round]);
      log(`| ${side.name} | ${median(results[side.name]).toFixed(0)} | **${median(ratios).toFixed(3)}** | ${ratios.map((r) => r.toFixed(2)).join(", ")} |`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
