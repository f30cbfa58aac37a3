/** A refused editor save's messages, by section and then by field, as the page and the server both count them. */
export type SectionErrors = Record<string, Partial<Record<string, string | undefined>>>;

/** How many messages a refusal holds, all sections together: the save bar says it, the refusal's text too. */
export function countEditorErrors(errors: SectionErrors): number {
  return Object.values(errors).reduce((sum, section) => sum + Object.values(section).filter(Boolean).length, 0);
}
