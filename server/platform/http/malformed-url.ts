import type { RequestHandler } from "express";
import { sendRefusal } from "./refusal";

/**
 * Why an address cannot be read, or null when it can: every percent-escape in
 * the path and in each query name and value must decode to UTF-8 without a NUL.
 * Routes, URLSearchParams and the database would otherwise meet U+FFFD or NUL
 * (which PostgreSQL refuses in text, turning a typo into a 500).
 */
export function unreadableUrl(url: string): "path" | "query" | null {
  const mark = url.indexOf("?");
  const path = mark === -1 ? url : url.slice(0, mark);
  if (!decodesCleanly(path)) return "path";
  if (mark === -1) return null;
  const parts = url.slice(mark + 1).split(/[&=]/);
  return parts.every((part) => decodesCleanly(part.replaceAll("+", " "))) ? null : "query";
}

function decodesCleanly(text: string): boolean {
  if (!text.includes("%")) return !text.includes("\0");
  try {
    return !decodeURIComponent(text).includes("\0");
  } catch {
    return false;
  }
}

/** 400 with a plain explanation for an address with NUL bytes or broken UTF-8. */
export function refuseUnreadableUrls(): RequestHandler {
  return (req, res, next) => {
    const where = unreadableUrl(req.originalUrl);
    if (where === null) return next();
    sendRefusal(
      req,
      res,
      400,
      "This address cannot be read",
      `The ${where === "path" ? "address" : "search part of the address"} contains a NUL byte or an encoding that is not valid UTF-8. Check the link and try again.`,
    );
  };
}
