import { z } from "zod";
import { requireAddressVerifiedNow } from "#server/features/operations/verified-now";
import { parseOpportunityForm, type FieldErrors, type OpportunityFormInput } from "#server/domains/opportunities/form";
import { createOpportunity, editOpportunity, type MutationError } from "#server/domains/opportunities/mutations";
import { formInputOf } from "#server/domains/opportunities/public-shape";
import { getOpportunity, type OpportunityDetail } from "#server/domains/opportunities/read";
import { allTags, loadTagCatalogue } from "#server/domains/opportunities/tags";
import { success, type DomainError, type FieldRefusal, type Success } from "#server/platform/errors";
import { defineOperation, type OperationDeps } from "#server/features/operations/operation";
import { formFieldsSchema, NO_SUCH_OPPORTUNITY, NOT_YOUR_OPPORTUNITY, opportunityIdSchema, type NoSuchPost, type NotYourPost } from "./opportunity-input";

/** A tag the catalogue does not hold: the message names it, and so does `fieldErrors.tags`. No reason, unlike the form's own INVALID_FIELDS: a page says this message above the form. */
type UnknownTag = DomainError<"invalid-argument", { fieldErrors?: FieldErrors; reason?: never }>;

/** What a save answers: the post as saved, or why not. */
type Saved = Success<{ id: string; notice: string | null; post: OpportunityDetail }> | FieldRefusal<FieldErrors> | UnknownTag | NoSuchPost | NotYourPost;

/** The domain's refusal of a write: field problems as they are; anything about who owns the post is not-found (NOT_YOURS when it is someone else's). */
function ownRefusal(refused: MutationError): UnknownTag | NoSuchPost | NotYourPost {
  if (refused.code === "invalid-argument") return refused as UnknownTag;
  return refused.code === "permission-denied" ? NOT_YOUR_OPPORTUNITY : NO_SUCH_OPPORTUNITY;
}

/**
 * The form's fields laid over `stored` (or an empty form), checked by the form's rules, saved,
 * and read back. `notice` is what the save leaves out for the poster to hear (a half-filled deadline).
 */
async function save(deps: OperationDeps, uid: string, stored: OpportunityDetail | null, fields: Partial<OpportunityFormInput>): Promise<Saved> {
  const parsed = parseOpportunityForm(formInputOf(stored, fields));
  if (parsed.kind === "ERROR") return parsed;
  const known = allTags(await loadTagCatalogue(deps.db));
  const saved = stored === null ? await createOpportunity(deps.db, { uid }, parsed.form, known) : await editOpportunity(deps.db, { uid }, stored.id, parsed.form, known);
  if (saved.kind === "ERROR") return ownRefusal(saved);
  const post = await getOpportunity(deps.db, saved.id, uid);
  // Missing only when it was deleted between the save and this read.
  return post ? success({ id: saved.id, notice: parsed.notice, post }) : NO_SUCH_OPPORTUNITY;
}

/**
 * Post a new opportunity, live at once: the New opportunity form (app/routes/opportunities/new.tsx)
 * and `POST /api/v1/opportunities`. The form's rules and messages decide what may be posted;
 * posting needs a verified email address, read from the account (a key outlives an address change).
 */
export const postOpportunity = defineOperation({
  name: "postOpportunity",
  who: "account-holder",
  input: z.object({ fields: formFieldsSchema }),
  // invalid-argument: a field the form refuses (INVALID_FIELDS) or an unknown tag; permission-denied: EMAIL_NOT_VERIFIED.
  // A post deleted before it was read back is not-found, as it always was, and left undeclared: no one can ask for that.
  refusals: ["invalid-argument", "permission-denied"],
  call: async ({ caller, input, deps }) => {
    const verified = await requireAddressVerifiedNow(deps.db, caller);
    if (verified.kind === "ERROR") return verified;
    return save(deps, caller.uid, null, input.fields);
  },
});

/**
 * Change one of the caller's own posts: the Edit form (app/routes/opportunities/edit.tsx), which
 * sends every field, and `PATCH /api/v1/opportunities/{id}`, which sends the ones that change.
 * The rest keep their stored values, and the whole is checked by the form's rules. Whose post it
 * is, is settled before its fields are read: someone else's is not-found whatever was sent.
 */
export const changeOpportunity = defineOperation({
  name: "changeOpportunity",
  who: "account-holder",
  input: z.object({ opportunityId: opportunityIdSchema, changes: formFieldsSchema }),
  refusals: ["invalid-argument", "permission-denied", "not-found"],
  call: async ({ caller, input, deps }) => {
    const verified = await requireAddressVerifiedNow(deps.db, caller);
    if (verified.kind === "ERROR") return verified;
    const stored = await getOpportunity(deps.db, input.opportunityId, caller.uid);
    if (!stored) return NO_SUCH_OPPORTUNITY;
    if (stored.posterUid !== caller.uid) return NOT_YOUR_OPPORTUNITY;
    return save(deps, caller.uid, stored, input.changes);
  },
});
