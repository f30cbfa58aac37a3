// Loaded into the server under test with `node --import ./bench/memory/probe.mjs server.js`: writes
// the process's memory breakdown to MEMORY_PROBE_FILE once a second, for bench/memory/run.mjs.
// The server has no endpoint for this (and must not): the probe reads it from the inside.
import fs from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";

// NODE_OPTIONS reaches npm too, which runs the server; only the server is probed.
const file = process.argv[1]?.endsWith("server.js") ? process.env.MEMORY_PROBE_FILE : undefined;

// PGlite runs PostgreSQL in WebAssembly; its memory only grows. Counting the instances made
// lets the report say how much of the process is PGlite's heap.
const memories = [];
const NativeMemory = WebAssembly.Memory;
WebAssembly.Memory = class TrackedMemory extends NativeMemory {
  constructor(descriptor) {
    super(descriptor);
    memories.push(new WeakRef(this));
  }
};

function sample() {
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]));
  const wasm = memories.map((ref) => ref.deref()?.buffer.byteLength ?? 0).reduce((a, b) => a + b, 0);
  const status = fs.readFileSync("/proc/self/status", "utf8");
  const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) * 1024;
  return {
    at: Date.now(),
    pid: process.pid,
    cpuMicros: process.cpuUsage().user + process.cpuUsage().system,
    rss: usage.rss,
    rssAnon: kb("RssAnon"),
    rssFile: kb("RssFile"),
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    newSpace: spaces.new_space ?? 0,
    wasmMemory: wasm,
    wasmInstances: memories.filter((ref) => ref.deref()).length,
  };
}

function write() {
  try {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(sample()));
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // the bench reads the last good sample
  }
}

if (file) {
  setInterval(write, 1000).unref();
  // SIGUSR2: a full garbage collection, then a sample at once (what is live, not what is
  // merely not collected yet), and a heap snapshot next to it when MEMORY_PROBE_SNAPSHOT is set.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  process.on("SIGUSR2", () => {
    gc();
    if (process.env.MEMORY_PROBE_SNAPSHOT) v8.writeHeapSnapshot(process.env.MEMORY_PROBE_SNAPSHOT);
    write();
    fs.writeFileSync(`${file}.gc`, fs.readFileSync(file));
  });
}
