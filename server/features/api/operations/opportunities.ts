import { z } from "zod";
import { refusal, success } from "#server/platform/errors";
import { listOpportunities } from "#server/domains/opportunities/list";
import { parseListQuery } from "#server/domains/opportunities/list-query";
import { formChangesOf, publicOpportunity, publicOpportunitySummary, writeFieldErrors } from "#server/domains/opportunities/public-shape";
import { allTags } from "#server/domains/opportunities/tags";
import { logTagSearch } from "#server/domains/opportunities/read";
import { MAX_TAG_FILTERS } from "#isomorphic/opportunity-links";
import { MAX_POST_TAGS } from "#isomorphic/tag-groups";
import { defineApiOperation, type AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { deleteOwnOpportunity } from "#server/features/operations/opportunities/delete";
import { readOpportunity } from "#server/features/operations/opportunities/read";
import { changeOpportunity, postOpportunity } from "#server/features/operations/opportunities/write";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";

const money = z.object({
  amount: z.number().int().min(0).meta({ description: "In minor units of `currency` (cents): 50000 is $500.00." }),
  currency: z.string().regex(/^[a-z]{3}$/).meta({ description: "ISO 4217, lowercase.", example: "usd" }),
});

const deadline = z
  .object({
    at: z.iso.datetime().meta({ description: "The instant applications close." }),
    date: z.string().meta({ description: "The date it was typed as, in `timeZone`: YYYY-MM-DD.", example: "2030-07-15" }),
    time: z.string().meta({ description: "The time it was typed as, in `timeZone`: HH:MM, 24-hour.", example: "17:00" }),
    timeZone: z.string().meta({ description: "The IANA time zone the date and time are wall-clock time in.", example: "America/New_York" }),
  })
  .nullable()
  .meta({ description: "When applications close; null when the post has no deadline." });

const summarySchema = z
  .object({
    id: z.string(),
    title: z.string(),
    organization: z.string(),
    minContribution: money.meta({ description: "The smallest contribution the poster asks for; 0 when funds are not collected here." }),
    deadline,
    tags: z.array(z.string()),
    hearts: z.number().int().min(0).meta({ description: "How many people hearted it." }),
    liked: z.boolean().meta({ description: "Whether you hearted it." }),
  })
  .meta({ id: "OpportunitySummary", description: "An opportunity as the list shows it." });

const opportunitySchema = summarySchema
  .extend({
    description: z.string(),
    bullets: z.array(z.string()).meta({ description: "The highlights (requirements or benefits), in order." }),
    website: z.string().meta({ description: "An http(s) address, or empty." }),
    contactName: z.string(),
    contactEmail: z.string(),
    contactPhone: z.string(),
    poster: z.object({ id: z.string().meta({ description: "The poster's account id (yours is `GET /me`'s `id`)." }), name: z.string() }),
    postedAt: z.iso.datetime(),
    removed: z
      .object({ reason: z.string() })
      .nullable()
      .meta({ description: "Set only on your own post that our team took down, with why; only you can read it then, and it is left out of the list." }),
  })
  .meta({ id: "Opportunity", description: "An opportunity with everything its page shows." });

const noLineBreak = (value: string) => !/[\r\n]/.test(value);

/** A write's fields: the page form's, in JSON. Lengths, tags and addresses are checked by the form's own rules. */
const writeFields = {
  title: z.string().meta({ description: "Required; under 100 characters." }),
  description: z.string().meta({ description: "Required; under 1000 characters." }),
  bullets: z
    .array(z.string().refine(noLineBreak, "One line per bullet point"))
    .meta({ description: "Highlights, at most 10, each under 100 characters. A leading `-`, `*` or `•` is dropped." }),
  organization: z.string().meta({ description: "Under 100 characters." }),
  website: z.string().meta({ description: "Empty, or an address starting with http:// or https://." }),
  minContribution: z
    .object({
      amount: z.number().int().min(0).refine((amount) => amount % 100 === 0, "Whole dollars only: a multiple of 100 cents"),
      currency: z.literal("usd"),
    })
    .meta({ description: "In minor units of whole dollars (50000 is $500), up to $10,000,000. Opportunities are in US dollars." }),
  deadline: z
    .object({
      date: z.string().min(1).meta({ description: "YYYY-MM-DD.", example: "2030-07-15" }),
      time: z.string().min(1).meta({ description: "HH:MM, 24-hour.", example: "17:00" }),
      timeZone: z.string().min(1).meta({ description: "The IANA zone the date and time are in.", example: "Europe/Berlin" }),
    })
    .nullable()
    .meta({ description: "Wall-clock date and time in a time zone; null for none. A time the clocks skip is refused." }),
  contactName: z.string().meta({ description: "Under 100 characters." }),
  contactEmail: z.string().meta({ description: "Empty, or an email address." }),
  contactPhone: z.string().meta({ description: "Under 100 characters." }),
  tags: z.array(z.string()).meta({ description: `At most ${MAX_POST_TAGS}, from the tags the list filters by (lowercase).` }),
};

const newOpportunitySchema = z
  .strictObject(writeFields)
  .partial({ bullets: true, organization: true, website: true, minContribution: true, deadline: true, contactName: true, contactEmail: true, contactPhone: true, tags: true })
  .meta({ id: "NewOpportunity", description: "A new post. Fields left out are empty (no deadline, a minimum of 0)." });

const changesSchema = z
  .strictObject(writeFields)
  .partial()
  .meta({
    id: "OpportunityChanges",
    description: "A partial update: only the fields you send change; the rest keep their stored values. `bullets` and `tags` replace the whole list. Send `deadline: null` to remove the deadline.",
  });

const idParams = z.object({ id: z.string().meta({ description: "The opportunity's id." }) });

const tagsQuery = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : typeof value === "string" ? [value] : value))
  .meta({ description: `Only posts with every one of these tags (at most ${MAX_TAG_FILTERS}): repeat the parameter, \`?tags=music&tags=podcast%20sponsorship\`.` });

const listQuery = pageQuery.extend({ tags: tagsQuery });
const cursorShape = z.object({ after: z.string() });

export const opportunityOperations: AnyApiOperation[] = [
  defineApiOperation({
    id: "listOpportunities",
    method: "get",
    path: "/opportunities",
    tag: "Opportunities",
    summary: "List opportunities",
    description:
      "Every live opportunity, newest first as the list page orders them, optionally only those with every given tag. " +
      "Posts our team took down and posts of suspended accounts are left out. An unknown tag, more than 6 tags or a cursor that is not ours is `invalid_request`.",
    scope: "opportunities:read",
    query: listQuery,
    success: { status: 200, description: "One page of opportunities.", schema: pageOf(summarySchema, "OpportunityPage") },
    async handle({ caller, query, deps }) {
      const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor, cursorShape);
      if (query.cursor !== undefined && !cursor) return refusal("invalid-argument", "INVALID_REQUEST", "This cursor is not one of ours. Start again without one.");
      // The page's own parser: the same tag checks and messages, and the same cursor format.
      const params = new URLSearchParams(query.tags.map((tag) => ["tags[]", tag]));
      if (cursor) params.set("after", cursor.after);
      const parsed = parseListQuery(params, allTags(await deps.tagCatalogue()));
      if (parsed.kind === "ERROR") return refusal("invalid-argument", "INVALID_REQUEST", parsed.message);
      logTagSearch(deps.searchLog, caller.uid, parsed.query.tags);
      const page = await listOpportunities(deps.db, parsed.query, caller.uid, query.limit);
      const last = page.items.at(-1);
      return success({ body: { data: page.items.map(publicOpportunitySummary), nextCursor: page.hasNext && last ? encodeCursor({ after: last.id }) : null } });
    },
  }),
  apiOperationOf(readOpportunity, {
    id: "getOpportunity",
    method: "get",
    path: "/opportunities/{id}",
    tag: "Opportunities",
    summary: "Read an opportunity",
    description: "Anyone's live opportunity, or your own even when our team took it down (then `removed` says why).",
    scope: "opportunities:read",
    params: idParams,
    success: { status: 200, description: "The opportunity.", schema: opportunitySchema },
    input: ({ params }) => ({ opportunityId: params.id }),
    answer: ({ post }) => publicOpportunity(post),
  }),
  apiOperationOf(postOpportunity, {
    id: "createOpportunity",
    method: "post",
    path: "/opportunities",
    tag: "Opportunities",
    summary: "Post an opportunity",
    description:
      "Checked by the same rules and messages as the form in the app; `fields` names each field that needs a change (`body.title`, `body.deadline.date`). " +
      "Needs a verified email address, as posting in the app does (`email_not_verified`). Send an Idempotency-Key so a retry cannot post twice.",
    scope: "opportunities:write",
    body: newOpportunitySchema,
    idempotent: true,
    success: { status: 201, description: "The new opportunity, live at once.", schema: opportunitySchema },
    input: ({ body }) => ({ fields: formChangesOf(body) }),
    answer: ({ post }) => publicOpportunity(post),
    fields: writeFieldErrors,
  }),
  apiOperationOf(changeOpportunity, {
    id: "updateOpportunity",
    method: "patch",
    path: "/opportunities/{id}",
    tag: "Opportunities",
    summary: "Change your opportunity",
    description:
      "A partial update of one of your own posts: fields you leave out keep their values; the id, the date posted and the hearts never change. " +
      "The result is checked as a whole by the form's rules. Another account's post is `not_found`. Needs a verified email address.",
    scope: "opportunities:write",
    params: idParams,
    body: changesSchema,
    success: { status: 200, description: "The opportunity as saved.", schema: opportunitySchema },
    input: ({ params, body }) => ({ opportunityId: params.id, changes: formChangesOf(body) }),
    answer: ({ post }) => publicOpportunity(post),
    fields: writeFieldErrors,
  }),
  apiOperationOf(deleteOwnOpportunity, {
    id: "deleteOpportunity",
    method: "delete",
    path: "/opportunities/{id}",
    tag: "Opportunities",
    summary: "Delete your opportunity",
    description: "Deletes one of your own posts with its hearts, for good. Another account's post is `not_found`. Needs a verified email address.",
    scope: "opportunities:write",
    params: idParams,
    success: { status: 204, description: "Deleted." },
    input: ({ params }) => ({ opportunityId: params.id }),
    answer: () => undefined,
  }),
];
