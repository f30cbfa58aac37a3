// Browser-safe: the tag groups the picker shows, with no imports. The tags
// themselves come from the database (tags.ts) and reach the page through the
// loader, never through the bundle.

/** SPEC §3 "all_tags": the filter groups, in the order the picker shows them. */
export const TAG_GROUPS = [
  { kind: "sponsorship_type", label: "Sponsorship types" },
  { kind: "state", label: "States" },
  { kind: "industry", label: "Industries" },
  { kind: "other", label: "Other tags" },
  { kind: "event_date", label: "Event dates" },
] as const;

export type TagGroupKind = (typeof TAG_GROUPS)[number]["kind"];
export type TagCatalogue = Record<TagGroupKind, string[]>;

/** Default group of the picker (SPEC §3: "Default tag selection is the sponsorship type"). */
export const DEFAULT_TAG_GROUP: TagGroupKind = "sponsorship_type";

/** How many tags one post may carry (checked in form.ts, said on the form). */
export const MAX_POST_TAGS = 10;
