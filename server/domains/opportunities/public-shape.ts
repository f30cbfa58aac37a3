import { deadlineFields } from "./deadline";
import { formInputOfPost, type FieldErrors, type OpportunityFormInput } from "./form";
import type { OpportunitySummary } from "./list";
import type { OpportunityDetail } from "./read";

/**
 * An opportunity as programs read and write it (the `/api/v1` shape): money in minor units with
 * its currency, the deadline as an instant and as the wall time it was typed in, highlights as a
 * list. Writes become the page form's input, so they pass the very checks the form does.
 */
export type Money = { amount: number; currency: string };
export type PublicDeadline = { at: string; date: string; time: string; timeZone: string };

export type PublicOpportunitySummary = {
  id: string;
  title: string;
  organization: string;
  minContribution: Money;
  deadline: PublicDeadline | null;
  tags: string[];
  hearts: number;
  liked: boolean;
};

export type PublicOpportunity = PublicOpportunitySummary & {
  description: string;
  bullets: string[];
  website: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  poster: { id: string; name: string };
  postedAt: string;
  removed: { reason: string } | null;
};

/** What a write may say; absent fields keep their stored value (or the empty one, for a new post). */
export type OpportunityWrite = {
  title?: string;
  description?: string;
  bullets?: string[];
  organization?: string;
  website?: string;
  minContribution?: Money;
  deadline?: { date: string; time: string; timeZone: string } | null;
  contactName?: string;
  contactEmail?: string;
  contactPhone?: string;
  tags?: string[];
};

function publicDeadline(at: string | null, timeZone: string | null): PublicDeadline | null {
  if (at === null) return null;
  const wall = deadlineFields(at, timeZone);
  return { at, date: wall.deadlineDate, time: wall.deadlineTime, timeZone: wall.deadlineTimeZone };
}

export function publicOpportunitySummary(item: OpportunitySummary): PublicOpportunitySummary {
  return {
    id: item.id,
    title: item.title,
    organization: item.organization,
    minContribution: { amount: item.minContributionCents, currency: item.currency },
    deadline: publicDeadline(item.applicationDeadline, item.applicationDeadlineTimeZone),
    tags: item.tags,
    hearts: item.totalHearts,
    liked: item.liked,
  };
}

export function publicOpportunity(post: OpportunityDetail): PublicOpportunity {
  return {
    ...publicOpportunitySummary(post),
    description: post.description,
    bullets: post.bullets,
    website: post.website,
    contactName: post.contactName,
    contactEmail: post.contactEmail,
    contactPhone: post.contactPhone,
    poster: { id: post.posterUid, name: post.posterName },
    postedAt: post.datePosted,
    removed: post.removedReason === null ? null : { reason: post.removedReason },
  };
}

const EMPTY: OpportunityFormInput = {
  title: "", description: "", bullets: "", organization: "", website: "", minContribution: "",
  deadlineDate: "", deadlineTime: "", deadlineTimeZone: "", contactName: "", contactEmail: "", contactPhone: "", kind: "", tags: [],
};

/**
 * A write in the page form's fields: only the fields it sends (the form's text, whole dollars,
 * the deadline's three fields), so it can be laid over a stored post or an empty form.
 */
export function formChangesOf(write: OpportunityWrite): Partial<OpportunityFormInput> {
  const changes: Partial<OpportunityFormInput> = {};
  if (write.title !== undefined) changes.title = write.title;
  if (write.description !== undefined) changes.description = write.description;
  if (write.bullets !== undefined) changes.bullets = write.bullets.join("\n");
  if (write.organization !== undefined) changes.organization = write.organization;
  if (write.website !== undefined) changes.website = write.website;
  // Whole dollars on the form; the API's minor units are checked to be whole dollars before this.
  if (write.minContribution !== undefined) changes.minContribution = String(write.minContribution.amount / 100);
  if (write.deadline !== undefined) {
    changes.deadlineDate = write.deadline?.date ?? "";
    changes.deadlineTime = write.deadline?.time ?? "";
    changes.deadlineTimeZone = write.deadline?.timeZone ?? "";
  }
  if (write.contactName !== undefined) changes.contactName = write.contactName;
  if (write.contactEmail !== undefined) changes.contactEmail = write.contactEmail;
  if (write.contactPhone !== undefined) changes.contactPhone = write.contactPhone;
  if (write.tags !== undefined) changes.tags = write.tags;
  return changes;
}

/** The page form's input for a write: `changes` over the stored post (an edit) or over an empty form (a new post). */
export function formInputOf(stored: OpportunityDetail | null, changes: Partial<OpportunityFormInput>): OpportunityFormInput {
  const sent = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return { ...(stored ? formInputOfPost(stored) : EMPTY), ...sent };
}

/** Where the form's fields are in the API's shape, so each message names what the caller sent. */
const WRITE_FIELD: Partial<Record<keyof FieldErrors, string>> = {
  minContribution: "minContribution.amount",
  deadlineDate: "deadline.date",
  deadlineTime: "deadline.time",
  deadlineTimeZone: "deadline.timeZone",
};

export function writeFieldErrors(fieldErrors: FieldErrors): Record<string, string> {
  const renamed: Record<string, string> = {};
  for (const [field, message] of Object.entries(fieldErrors)) {
    if (typeof message === "string") renamed[WRITE_FIELD[field as keyof FieldErrors] ?? field] = message;
  }
  return renamed;
}
