import { z } from "zod";
import { refusal, type Refusal } from "#server/platform/errors";
import { OPPORTUNITY_TEXT_FIELDS, type OpportunityTextField } from "#server/domains/opportunities/form";

/**
 * The post an operation is about. Any text: an id that names no post (a page's address, the API's
 * path) is answered as no such post by the domain, as it always was, never as a field problem.
 */
export const opportunityIdSchema = z.string({ error: "opportunityId must be text." });

const text = (field: string) => z.string({ error: `${field} must be text.` });

/**
 * What a write sends, in the page form's fields and as the form types them (text, whole dollars,
 * the deadline as three fields): the fields it leaves out keep the stored post's values, or the
 * empty form's. Their content is the form's rules' to check (server/domains/opportunities/form.ts).
 */
export const formFieldsSchema = z
  .object({
    ...(Object.fromEntries(OPPORTUNITY_TEXT_FIELDS.map((field) => [field, text(field)])) as Record<OpportunityTextField, ReturnType<typeof text>>),
    tags: z.array(z.string({ error: "Each of tags must be text." }), { error: "tags must be a list of tags." }),
  })
  .partial();

/** No post by that id that the caller may see. */
export type NoSuchPost = Refusal<"not-found", "NOT_FOUND">;
/** Someone else's post: not-found like a missing one (nothing tells a stranger it exists), with its own reason for the pages, which have always said so (403). */
export type NotYourPost = Refusal<"not-found", "NOT_YOURS">;

export const NO_SUCH_OPPORTUNITY: NoSuchPost = refusal("not-found", "NOT_FOUND", "There is no such opportunity.");
export const NOT_YOUR_OPPORTUNITY: NotYourPost = refusal("not-found", "NOT_YOURS", "There is no such opportunity.");
