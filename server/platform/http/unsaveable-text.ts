/**
 * Text no database keeps: PostgreSQL refuses a NUL character and a lone surrogate (JSON can
 * spell both, "\u0000", "\ud800") with an error that would be a 500. The callable functions and
 * the public API refuse it at the door, as readForm does for forms.
 */
// With the u flag, a surrogate pair is one code point: only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `value` (any JSON: keys and strings, however deep) cannot be stored, or null when it can. */
export function unsaveableText(value: unknown, depth = 0): string | null {
  if (typeof value === "string") {
    if (value.includes("\0")) return "Text must not contain NUL characters.";
    if (LONE_SURROGATE.test(value)) return "Text must be valid Unicode.";
    return null;
  }
  if (typeof value !== "object" || value === null || depth > 20) return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = unsaveableText(key, depth + 1) ?? unsaveableText(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}
