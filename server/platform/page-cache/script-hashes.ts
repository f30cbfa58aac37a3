import crypto from "node:crypto";

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** `'sha256-…'` sources for every inline script of a document, in order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, content] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(content!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * A guest page is rendered without a nonce, so the same bytes can be sent to
 * every guest: a nonce repeated across responses would be one an attacker can
 * read and reuse. Its policy allows exactly the inline scripts it contains, by
 * hash, in place of the nonce source; scripts injected into the page match no
 * hash and stay blocked. A policy without a nonce source is returned as it is.
 */
export function policyWithScriptHashes(policy: string, html: string): string {
  const hashes = inlineScriptHashes(html);
  return policy.replace(/\s*'nonce-[^']*'/g, hashes.length > 0 ? ` ${hashes.join(" ")}` : "");
}
