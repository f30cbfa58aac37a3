import type { Request, Response } from "express";

/**
 * How the HTTP guards (host, address, body size) answer a request they refuse:
 * a small HTML page to a browser loading a page, plain text to anything else.
 * Nothing of the request is echoed back.
 */
export function sendRefusal(req: Request, res: Response, status: number, title: string, message: string) {
  if (res.headersSent) return;
  res.status(status).setHeader("Cache-Control", "no-store");
  if (wantsHtml(req)) {
    res.type("html").send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>` +
        `<p>${escapeHtml(message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`,
    );
    return;
  }
  res.type("text/plain").send(`${message}\n`);
}

/** A browser navigating (Sec-Fetch-Dest: document, or HTML preferred over anything else). */
function wantsHtml(req: Request): boolean {
  if (req.get("sec-fetch-dest") === "document") return true;
  const accept = req.get("accept") ?? "";
  return accept.includes("text/html");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
