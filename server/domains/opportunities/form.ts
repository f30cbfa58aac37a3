import { z } from "zod";
import { fieldRefusal, type FieldRefusal } from "#server/platform/errors";
import { deadlineFields, parseDeadline, type Deadline } from "./deadline";
import type { OpportunityDetail } from "./read";
import { MAX_POST_TAGS } from "#isomorphic/tag-groups";
import type { OpportunityKind } from "#server/platform/db/schema";

export const MAX_BULLETS = 10;
const MAX_CONTRIBUTION_DOLLARS = 10_000_000;

const UNDER_100 = "Must be under 100 characters";
const UNDER_1000 = "Must be under 1000 characters";
export const BLANK_BENEFIT = "Benefit cannot be blank";
// A highlight line begins with an optional bullet marker; a marker with nothing after it is a blank benefit.
const BULLET_MARKER = /^[-*•]\s*/;
const chars = (value: string) => [...value].length;

const emailFormat = z.email();
const shortText = z.string().trim().refine((v) => chars(v) < 100, UNDER_100);
const url = z
  .string()
  .trim()
  .refine((v) => v === "" || /^https?:\/\/\S+$/i.test(v), "URL must start with either http:// or https://")
  .refine((v) => chars(v) < 1000, UNDER_1000);

/**
 * The opportunity form (SPEC §3 fields), as typed by a person. Messages are
 * the spec's where it has them. Shared by the form and the server action.
 */
export const opportunityFormSchema = z
  .object({
    title: z.string().trim().min(1, "Required").refine((v) => chars(v) < 100, UNDER_100),
    description: z.string().trim().min(1, "Required").refine((v) => chars(v) < 1000, UNDER_1000),
    // The highlights, one per line (requirements or benefits). Empty lines only separate them; a line
    // started as a benefit ("-", "*" or "•") and left empty is SPEC §5's 'Benefit cannot be blank'.
    bullets: z
      .string()
      .refine((v) => v.split(/\r?\n/).every((line) => !BULLET_MARKER.test(line.trim()) || line.trim().replace(BULLET_MARKER, "") !== ""), BLANK_BENEFIT)
      .transform((v) => v.split(/\r?\n/).map((line) => line.trim().replace(BULLET_MARKER, "")).filter(Boolean))
      .refine((lines) => lines.length <= MAX_BULLETS, `At most ${MAX_BULLETS} bullet points`)
      .refine((lines) => lines.every((line) => chars(line) < 100), "Each bullet point must be under 100 characters"),
    organization: shortText,
    website: url,
    minContribution: z
      .string()
      .trim()
      .transform((v) => v.replace(/^\$/, "").replace(/,/g, ""))
      .refine((v) => v === "" || /^\d+$/.test(v), "Enter a whole-dollar amount of 0 or more, like 500")
      .transform((v) => (v === "" ? 0 : Number(v)))
      .refine((v) => v <= MAX_CONTRIBUTION_DOLLARS, "Must be $10,000,000 or less"),
    // Checked together, with the zone, by parseDeadline in parseOpportunityForm.
    deadlineDate: z.string().trim(),
    deadlineTime: z.string().trim(),
    // The IANA zone the date and time are wall-clock time in (the poster's, or the one they chose).
    deadlineTimeZone: z.string().trim(),
    contactName: shortText,
    contactEmail: z
      .string()
      .trim()
      .refine((v) => v === "" || emailFormat.safeParse(v).success, "Enter a valid email address, like name@example.com")
      .refine((v) => chars(v) < 100, UNDER_100),
    contactPhone: shortText,
    tags: z.array(z.string().trim().toLowerCase()).transform((tags) => [...new Set(tags.filter(Boolean))]),
    // Which way it runs; left empty, the poster's account type decides (a sponsor posts a brief).
    kind: z
      .string()
      .trim()
      .optional()
      .refine((v) => !v || v === "brief" || v === "request", "Choose whether creators apply or sponsors make offers")
      .transform((v) => (v ? (v as OpportunityKind) : null)),
  })
  .superRefine((form, ctx) => {
    if (form.tags.length > MAX_POST_TAGS) {
      ctx.addIssue({ code: "custom", path: ["tags"], message: `Choose at most ${MAX_POST_TAGS} tags` });
    }
  });

export type OpportunityFormInput = z.input<typeof opportunityFormSchema>;
type SchemaOutput = z.output<typeof opportunityFormSchema>;
export type OpportunityForm = Omit<SchemaOutput, "deadlineDate" | "deadlineTime" | "deadlineTimeZone"> & { deadline: Deadline | null };
export type FieldErrors = Partial<Record<keyof OpportunityFormInput, string>>;

/** The form's fields that are text as typed; `tags` is the one list. */
export const OPPORTUNITY_TEXT_FIELDS = [
  "title",
  "description",
  "bullets",
  "organization",
  "website",
  "minContribution",
  "deadlineDate",
  "deadlineTime",
  "deadlineTimeZone",
  "contactName",
  "contactEmail",
  "contactPhone",
  "kind",
] as const satisfies readonly Exclude<keyof OpportunityFormInput, "tags">[];

export type OpportunityTextField = (typeof OPPORTUNITY_TEXT_FIELDS)[number];

export function formDataToInput(form: FormData): OpportunityFormInput {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const fields = Object.fromEntries(OPPORTUNITY_TEXT_FIELDS.map((name) => [name, text(name)])) as Record<OpportunityTextField, string>;
  return { ...fields, tags: form.getAll("tags").filter((value): value is string => typeof value === "string") };
}

/**
 * The form's fields checked, with the deadline converted to an instant. The
 * deadline is checked even when other fields fail, so one submission shows
 * every field's message.
 */
export function parseOpportunityForm(input: OpportunityFormInput):
  | { kind: "SUCCESS"; form: OpportunityForm; /** Said with the saved post: a half-filled deadline was left out. */ notice: string | null }
  | FieldRefusal<FieldErrors> {
  const result = opportunityFormSchema.safeParse(input);
  const deadline = parseDeadline({
    deadlineDate: input.deadlineDate.trim(),
    deadlineTime: input.deadlineTime.trim(),
    deadlineTimeZone: input.deadlineTimeZone.trim(),
  });
  if (result.success && deadline.kind === "SUCCESS") {
    const { deadlineDate: _date, deadlineTime: _time, deadlineTimeZone: _zone, ...form } = result.data;
    return { kind: "SUCCESS", form: { ...form, deadline: deadline.deadline }, notice: deadline.notice ?? null };
  }
  const fieldErrors: FieldErrors = {};
  if (deadline.kind === "ERROR") fieldErrors[deadline.field] = deadline.message;
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof FieldErrors;
    fieldErrors[field] ??= issue.message;
  }
  return fieldRefusal(fieldErrors);
}

/** The form as the edit page fills it from a stored post; the API's partial edit starts from it too. */
export function formInputOfPost(post: OpportunityDetail): OpportunityFormInput {
  return {
    title: post.title,
    description: post.description,
    bullets: post.bullets.join("\n"),
    organization: post.organization,
    website: post.website,
    minContribution: String(post.minContributionCents / 100),
    // The saved deadline as the wall time it was typed in, in its zone: saving unchanged keeps the instant.
    ...deadlineFields(post.applicationDeadline, post.applicationDeadlineTimeZone),
    contactName: post.contactName,
    contactEmail: post.contactEmail,
    contactPhone: post.contactPhone,
    kind: post.kind,
    tags: post.tags,
  };
}
