/**
 * The one check every redirect target passes (redirectTo, returnTo, Google's
 * callbackURL): only a path on this site, never another host (no open
 * redirect). Anything doubtful falls back.
 *
 * Browsers, proxies and frameworks "fix" URLs in different ways: they drop tabs
 * and newlines, read `\` as `/`, resolve `.` and `..`, and some decode `%2F`
 * once more. So the candidate is resolved against a placeholder origin, and the
 * result, and that result percent-decoded again (up to three times), must each
 * still be a single-slash path on the same origin with nothing a normaliser
 * could turn into a slash, a host separator or whitespace.
 */
const BASE = "http://same.invalid";
const MAX_LENGTH = 2048;
const DECODE_ROUNDS = 3;

export function safeRedirectPath(value: string | null | undefined, fallback = "/app"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return fallback;
  if (!looksLikeLocalPath(value)) return fallback;
  let resolved: string;
  try {
    const url = new URL(value, BASE);
    if (url.origin !== BASE) return fallback;
    resolved = `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
  if (!looksLikeLocalPath(resolved) || !resolvesLocally(resolved)) return fallback;
  let layer = resolved;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const decoded = lenientPercentDecode(layer);
    if (decoded === layer) break;
    // Decoded text may hold spaces (a query's "%20"); controls have no business in a redirect.
    if (hasControlCharacter(decoded)) return fallback;
    const folded = foldLikeANormaliser(decoded);
    if (!folded.startsWith("/") || folded.startsWith("//") || !resolvesLocally(folded)) return fallback;
    layer = decoded;
  }
  return resolved;
}

/** What lax parsers make of text: fullwidth folded, backslashes and lookalikes read as separators, invisibles dropped. */
function foldLikeANormaliser(value: string): string {
  return value
    .normalize("NFKC")
    .replace(/[\p{Cf}]/gu, "")
    .replace(/[\\\u2044\u2215\u29f5\u29f8\u29f9\ufe68]/gu, "/")
    .replace(/[\u3002\uff61\u2024]/gu, ".");
}

/** A single leading slash and no character that a browser would strip or turn into a separator. */
function looksLikeLocalPath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return false;
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code <= 0x20 || code === 0x7f || ch === "\\") return false;
    if (code > 0x7e && suspiciousUnicode(ch)) return false;
  }
  return true;
}

// Controls, invisible formatting (bidi, zero-width), any kind of space, unassigned/surrogates.
const INVISIBLE_OR_SPACE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}]/u;

// Lookalikes that no normalisation folds but IDNA or lax parsers read as separators:
// fraction and division slashes, reverse solidus operator, ideographic and halfwidth full stops.
const SEPARATOR_LOOKALIKES = /[\u2044\u2215\u29f5\u29f8\u29f9\ufe68\u3002\uff61\u2024]/u;

/** Invisible or space-like, or folds into ASCII under NFKC (fullwidth ／, ＼, ．, ＠, ：...). */
function suspiciousUnicode(ch: string): boolean {
  if (INVISIBLE_OR_SPACE.test(ch) || SEPARATOR_LOOKALIKES.test(ch)) return true;
  return [...ch.normalize("NFKC")].some((folded) => folded.codePointAt(0)! < 0x80);
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function resolvesLocally(path: string): boolean {
  try {
    const url = new URL(path, BASE);
    return url.origin === BASE && !url.pathname.startsWith("//");
  } catch {
    return false;
  }
}

/** Decodes every valid %XX as a byte (invalid UTF-8 becomes U+FFFD), leaving malformed escapes alone, as lax servers do. */
export function lenientPercentDecode(value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === "%" && /^[0-9a-f]{2}$/i.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const cp = value.codePointAt(i)!;
      const s = String.fromCodePoint(cp);
      bytes.push(...encoder.encode(s));
      i += s.length - 1;
    }
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(new Uint8Array(bytes));
}

export function signInPath(redirectTo: string): string {
  return `/signin?redirectTo=${encodeURIComponent(safeRedirectPath(redirectTo))}`;
}

/**
 * Where a verification opened by a browser that was not signed in to the account leads: the email
 * is verified, the password chosen at sign-up (perhaps by someone else) is gone (ADR 0009).
 */
export function choosePasswordPath(token: string): string {
  return `/reset-password?${new URLSearchParams({ token, verified: "1" })}`;
}
