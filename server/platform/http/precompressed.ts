import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

/**
 * Serves `/assets/<name>.br` (written at build time by scripts/precompress-assets.ts)
 * in place of `/assets/<name>` to a browser that accepts brotli. Anything else
 * falls through to express.static and the compression middleware, as before.
 * The list of compressed files is read once: the build folder does not change
 * under a running server.
 */
export function precompressedAssets(assetsDir: string): RequestHandler {
  const compressed = new Set<string>();
  try {
    for (const name of fs.readdirSync(assetsDir)) if (name.endsWith(".br")) compressed.add(name.slice(0, -3));
  } catch {
    // No build folder (unit tests): nothing to serve from here.
  }
  const types: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    if (!compressed.has(name)) return next();
    res.vary("Accept-Encoding");
    if (req.acceptsEncodings("br") !== "br") return next();
    res.setHeader("Content-Encoding", "br");
    res.setHeader("Content-Type", types[path.extname(name)] ?? "application/octet-stream");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.sendFile(path.join(assetsDir, `${name}.br`), { cacheControl: false, lastModified: true }, (error) => {
      if (error) next(error);
    });
  };
}
