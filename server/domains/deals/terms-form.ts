import { z } from "zod";
import { amountProblem, DEFAULT_CURRENCY, PAYMENT_LIMITS } from "#isomorphic/payment-limits";
import { fieldRefusal, type FieldRefusal } from "#server/platform/errors";
import { USAGE_RIGHTS, type DealDeliverable, type UsageRights } from "#server/platform/db/schema";

import { MAX_DEAL_LINKS, MAX_DEAL_TEXT, MAX_DELIVERABLES } from "#isomorphic/deal-limits";

/** Terms as one side proposes them, checked: what a `deal_terms` row holds besides who and when. */
export type DealTermsInput = {
  price: number;
  currency: string;
  deliverables: DealDeliverable[];
  usageRights: UsageRights;
  usageDays: number;
  exclusivityDays: number;
  disclosureRequired: boolean;
  sponsorApproves: boolean;
  autoApproveDays: number;
  message: string;
};

export type TermsFieldErrors = Partial<Record<"price" | "deliverables" | "usageRights" | "usageDays" | "exclusivityDays" | "autoApproveDays" | "message", string>>;

const chars = (value: string) => [...value].length;
const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: cents % 100 ? 2 : 0 })}`;

/** Whole days within a range, as a form types them; empty is the default. */
const days = (min: number, max: number, fallback: number, what: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? String(fallback) : v))
    .refine((v) => /^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max, `${what} must be a whole number of days from ${min} to ${max}`)
    .transform(Number);

const termsSchema = z.object({
  price: z
    .string()
    .trim()
    .transform((v) => v.replace(/^\$/, "").replace(/,/g, ""))
    .refine((v) => /^\d+(\.\d{1,2})?$/.test(v), "Enter the price in dollars, like 750 or 750.50")
    .transform((v) => Math.round(Number(v) * 100))
    .superRefine((cents, ctx) => {
      const problem = priceProblem(cents);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  usageRights: z.enum(USAGE_RIGHTS, { error: "Choose what the sponsor may do with the content" }),
  usageDays: days(0, 3650, 30, "Usage rights"),
  exclusivityDays: days(0, 365, 0, "Exclusivity"),
  autoApproveDays: days(1, 30, 3, "The approval window"),
  message: z.string().trim().refine((v) => chars(v) <= MAX_DEAL_TEXT, `Must be at most ${MAX_DEAL_TEXT} characters`),
});

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/**
 * The deliverable rows as the form sends them (three lists of the same length); rows left wholly
 * empty are dropped. A due date may be today anywhere on Earth, so yesterday in UTC is the earliest.
 */
export function parseDeliverables(channels: string[], formats: string[], dueDates: string[], now: Date): DealDeliverable[] | string {
  const rows: DealDeliverable[] = [];
  const count = Math.max(channels.length, formats.length, dueDates.length);
  const earliest = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < count; i++) {
    const row = { channel: (channels[i] ?? "").trim(), format: (formats[i] ?? "").trim(), dueDate: (dueDates[i] ?? "").trim() };
    if (!row.channel && !row.format && !row.dueDate) continue;
    if (!row.channel || !row.format || !row.dueDate) return "Give each deliverable a channel, what is made and a due date";
    if (chars(row.channel) > 40 || chars(row.format) > 80) return "Keep a channel under 40 characters and what is made under 80";
    if (!isCalendarDay(row.dueDate)) return "Enter each due date as a date, like 2027-03-01";
    if (row.dueDate < earliest) return "A due date cannot be in the past";
    rows.push(row);
  }
  if (rows.length === 0) return "Add at least one deliverable";
  if (rows.length > MAX_DELIVERABLES) return `At most ${MAX_DELIVERABLES} deliverables`;
  return rows;
}

/**
 * The price's bounds in minor units, in the form's words, or null when it is within them: the
 * form's dollars and `/api/v1`'s minor units are held to the same limits.
 */
export function priceProblem(cents: number): string | null {
  const { minimum, maximum } = PAYMENT_LIMITS[DEFAULT_CURRENCY];
  return amountProblem(cents, DEFAULT_CURRENCY) ? `The price must be from ${dollars(minimum)} to ${dollars(maximum)}` : null;
}

/** What a terms form sends, as text: the deal forms read it with `termsFormOf`. */
export type TermsFormFields = {
  price: string;
  usageRights: string;
  usageDays: string;
  exclusivityDays: string;
  autoApproveDays: string;
  message: string;
  disclosureRequired: boolean;
  sponsorApproves: boolean;
  deliverableChannel: string[];
  deliverableFormat: string[];
  deliverableDue: string[];
};

/** The terms as typed, checked; every field's message at once. */
export function parseTerms(fields: TermsFormFields, now = new Date()): { kind: "SUCCESS"; terms: DealTermsInput } | FieldRefusal<TermsFieldErrors> {
  const parsed = termsSchema.safeParse(fields);
  const deliverables = parseDeliverables(fields.deliverableChannel, fields.deliverableFormat, fields.deliverableDue, now);
  if (parsed.success && typeof deliverables !== "string") {
    const { usageRights, usageDays } = parsed.data;
    return {
      kind: "SUCCESS",
      terms: {
        ...parsed.data,
        currency: DEFAULT_CURRENCY,
        usageDays: usageRights === "none" ? 0 : usageDays,
        deliverables,
        disclosureRequired: fields.disclosureRequired,
        sponsorApproves: fields.sponsorApproves,
      },
    };
  }
  const errors: TermsFieldErrors = {};
  for (const issue of parsed.error?.issues ?? []) errors[issue.path[0] as keyof TermsFieldErrors] ??= issue.message;
  if (typeof deliverables === "string") errors.deliverables = deliverables;
  return fieldRefusal(errors);
}

/** A terms form's fields from a submitted form. */
export function termsFormOf(form: FormData): TermsFormFields {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const list = (name: string) => form.getAll(name).map((value) => (typeof value === "string" ? value : ""));
  return {
    price: text("price"),
    usageRights: text("usageRights"),
    usageDays: text("usageDays"),
    exclusivityDays: text("exclusivityDays"),
    autoApproveDays: text("autoApproveDays"),
    message: text("message"),
    disclosureRequired: form.get("disclosureRequired") === "on",
    sponsorApproves: form.get("sponsorApproves") === "on",
    deliverableChannel: list("deliverableChannel"),
    deliverableFormat: list("deliverableFormat"),
    deliverableDue: list("deliverableDue"),
  };
}

/** Text that is a list of at most three http(s) addresses, one per line. */
export function parseLinks(text: string): string[] | string {
  const links = text
    .split(/\s+/)
    .map((link) => link.trim())
    .filter(Boolean);
  if (links.length > MAX_DEAL_LINKS) return `At most ${MAX_DEAL_LINKS} links`;
  if (links.some((link) => !/^https?:\/\/[^\s]+$/i.test(link) || chars(link) > 500)) return "Each link must start with http:// or https://";
  return links;
}
