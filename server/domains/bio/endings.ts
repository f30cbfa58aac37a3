import { customAlphabet } from "nanoid";

/** SPEC §5: the only characters a custom ending may hold. */
export const ENDING_FORMAT = /^[a-z0-9_]+$/;
export const ENDING_FORMAT_MESSAGE = "You may only use lowercase letters, numbers, and underscore";
export const ENDING_TAKEN_MESSAGE = "This URL is already taken";

/**
 * Endings no page may take: names the bio host or the app answers itself, or
 * that a reader would take for the site's own (an "admin" page run by a
 * stranger). Endings never contain a dot, so `robots.txt` and `favicon.ico`
 * on the bio host can never collide with a page.
 */
export const RESERVED_ENDINGS: ReadonlySet<string> = new Set([
  "404", "500", "about", "account", "admin", "api", "app", "assets", "bio", "bizbio", "blog",
  "dashboard", "dev", "edit", "featured", "help", "home", "legal", "login", "logout", "new",
  "notifications", "payments", "pro", "profiles", "root", "sandbox", "settings", "signin",
  "signout", "signup", "sponsorgrid", "sponsors", "static", "support", "www",
]);

export function isReservedEnding(ending: string): boolean {
  return RESERVED_ENDINGS.has(ending);
}

/** Page ids: random, URL-safe, like the document ids SPEC §3 derives the default ending from. */
const newId = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 20);

export function newBioPageId(): string {
  return newId();
}

/** SPEC §3: the default ending is the generated id, lowercased, non-alphanumerics turned into underscores. */
export function defaultEndingFor(pageId: string): string {
  return pageId.toLowerCase().replace(/[^a-z0-9]/g, "_");
}

// What bio_pages.id and custom_ending can hold at all (their check constraints, plus a bound).
const PAGE_ID_FORMAT = /^[A-Za-z0-9_]{1,64}$/;

/** Whether a client-given id can name a page; anything else is "not found" before any query. */
export function isBioPageId(value: string): boolean {
  return PAGE_ID_FORMAT.test(value);
}

/** Whether a path segment can be a page's ending (so an unknown one is a 404 with no query). */
export function couldBeEnding(value: string): boolean {
  return value.length > 0 && value.length < 100 && ENDING_FORMAT.test(value);
}
