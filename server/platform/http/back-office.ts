import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/**
 * The back office's responses (mounted on its path): never stored by a browser or a shared cache,
 * and never indexed, whatever the route or an error page set. Applied as the headers go out, so
 * nothing later can take them off.
 */
export function backOfficeResponses(): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      this.setHeader("Cache-Control", "private, no-store");
      this.setHeader("X-Robots-Tag", "noindex, nofollow");
      return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}
