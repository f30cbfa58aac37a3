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
  deadlineDate: "", deadlineTime: "", deadlineTimeZone: "", contactName: "", contactEmail: "", contactPhone: "", tags: [],
};

/** The page form's input for a write: `write` over the stored post (an edit) or over an empty form (a new post). */
export function formInputOf(stored: OpportunityDetail | null, write: OpportunityWrite): OpportunityFormInput {
  const base = stored ? formInputOfPost(stored) : EMPTY;
  const deadline =
    write.deadline === undefined
      ? { deadlineDate: base.deadlineDate, deadlineTime: base.deadlineTime, deadlineTimeZone: base.deadlineTimeZone }
      : write.deadline === null
        ? { deadlineDate: "", deadlineTime: "", deadlineTimeZone: "" }
        : { deadlineDate: write.deadline.date, deadlineTime: write.deadline.time, deadlineTimeZone: write.deadline.timeZone };
  return {
    title: write.title ?? base.title,
    description: write.description ?? base.description,
    bullets: write.bullets ? write.bullets.join("\n") : base.bullets,
    organization: write.organization ?? base.organization,
    website: write.website ?? base.website,
    // Whole dollars on the form; the API's minor units are checked to be whole dollars before this.
    minContribution: write.minContribution ? String(write.minContribution.amount / 100) : base.minContribution,
    ...deadline,
    contactName: write.contactName ?? base.contactName,
    contactEmail: write.contactEmail ?? base.contactEmail,
    contactPhone: write.contactPhone ?? base.contactPhone,
    tags: write.tags ?? base.tags,
  };
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
