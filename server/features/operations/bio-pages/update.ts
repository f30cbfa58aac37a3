import { z } from "zod";
import { parseBioPageForm } from "#server/domains/bio/form";
import { editBioPage, getOwnPage } from "#server/domains/bio/pages";
import { bioFormInputOf } from "#server/domains/bio/public-shape";
import { fieldRefusal } from "#server/platform/errors";
import { defineOperation } from "#server/features/operations/operation";
import { bioPageIdSchema } from "./bio-page-input";
import { asVerifiedOwner } from "./verified-owner";

const linkRow = z.object({
  type: z.string({ error: "Each link's type must be a string." }),
  url: z.string({ error: "Each link's url must be a string." }),
  title: z.string({ error: "Each link's title must be a string." }).optional(),
  enabled: z.boolean({ error: "Each link's enabled must be true or false." }).optional(),
});

/**
 * What a save changes, as the editor's form types it; a field left out keeps the stored value
 * (the API's partial update). `customEnding` is the form's: the API cannot send it, and the
 * domain refuses any ending but the page's own, since it is permanent.
 */
const changes = z.object({
  name: z.string({ error: "name must be a string." }).optional(),
  customEnding: z.string({ error: "customEnding must be a string." }).optional(),
  blurb: z.string({ error: "blurb must be a string." }).optional(),
  links: z.array(linkRow, { error: "links must be a list of links." }).optional(),
  sponsorships: z.array(z.string({ error: "Each sponsorship must be an opportunity's id." }), { error: "sponsorships must be a list of ids." }).optional(),
});

/**
 * Save the name, blurb, links and sponsorship options of one of the caller's bio pages, checked
 * as a whole by the editor's rules and messages (server/domains/bio/form.ts) over what is
 * stored: `PATCH /api/v1/bio-pages/{id}`. Answers the page as saved. Another account's page is
 * not-found; a refusal about one field (a sponsorship not yours, the ending) names it, as the
 * editor's form does. The Edit bio page saves these fields with its look, support block, wall and
 * goal in one go: saveBioPageEditor (save-editor.ts).
 */
export const updateBioPage = defineOperation({
  name: "updateBioPage",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema, changes }),
  // invalid-argument: INVALID_FIELDS, by field; permission-denied: EMAIL_NOT_VERIFIED; not-found: not the caller's page.
  refusals: ["invalid-argument", "permission-denied", "not-found"],
  call: ({ caller, input, deps }) =>
    asVerifiedOwner(deps.db, caller, async () => {
      const owner = { uid: caller.uid };
      const stored = await getOwnPage(deps.db, owner, input.pageId);
      if (stored.kind === "ERROR") return stored;
      const { customEnding, ...write } = input.changes;
      const parsed = parseBioPageForm({ ...bioFormInputOf(stored.page, write), ...(customEnding !== undefined && { customEnding }) });
      if (parsed.kind === "ERROR") return parsed;
      const saved = await editBioPage(deps.db, owner, input.pageId, parsed.form);
      if (saved.kind === "ERROR") return saved.fieldErrors ? fieldRefusal(saved.fieldErrors) : saved;
      return getOwnPage(deps.db, owner, input.pageId);
    }),
});
