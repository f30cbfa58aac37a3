/**
 * A post to members is plain text: paragraphs are separated by a blank line, and a single line
 * break inside a paragraph is kept. The mail, the preview and the members' page all draw it from
 * these paragraphs, so they never disagree about where one ends.
 */

/** The body as stored: Windows line ends made plain, spaces at line ends and runs of blank lines dropped. */
export function normalisePostBody(body: string): string {
  return body
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The body's paragraphs, in order; each may hold single line breaks. */
export function postParagraphs(body: string): string[] {
  return normalisePostBody(body)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

/** "Everyone" or the tier's name, as the creator's lists and the preview say who a post went to. */
export function audienceLabel(tierName: string | null): string {
  return tierName === null ? "All members" : `${tierName} members`;
}
