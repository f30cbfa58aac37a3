/**
 * How "Search By Name" matches (SPEC §2.5, §7.2 name_array): case-insensitive,
 * the start of any word of the name. A name's words are its runs of letters
 * and digits, lowercased ("TunnelVPN" → tunnelvpn; "Skillet Fern" → skillet, fern;
 * "Plinth.example" → plinth, example). Each word's prefixes are stored (external_sponsors.
 * name_prefixes, GIN-indexed), so a search is one `@>` on an index.
 */

/** Longer prefixes are not stored; a longer search word is cut to this and still matches. */
export const MAX_PREFIX_CHARS = 24;
/** A search of more words than this keeps the first ones. */
export const MAX_SEARCH_WORDS = 5;

const WORD = /[\p{L}\p{N}]+/gu;

/** The lowercase words of a name (SPEC name_array). */
export function nameWords(name: string): string[] {
  const words = name.normalize("NFKC").toLowerCase().match(WORD) ?? [];
  return [...new Set(words)];
}

/** Every prefix (1 … MAX_PREFIX_CHARS characters) of every word. */
export function namePrefixes(words: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const word of words) {
    const chars = [...word].slice(0, MAX_PREFIX_CHARS);
    for (let end = 1; end <= chars.length; end++) prefixes.add(chars.slice(0, end).join(""));
  }
  return [...prefixes];
}

/**
 * The words a search must all find at the start of some word of the name,
 * or [] when the query has none (then it is no name search at all).
 */
export function searchTerms(query: string): string[] {
  return nameWords(query)
    .slice(0, MAX_SEARCH_WORDS)
    .map((word) => [...word].slice(0, MAX_PREFIX_CHARS).join(""));
}
