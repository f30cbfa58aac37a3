import { z } from "zod";
import { saveBioEditor } from "#server/domains/bio/editor-save";
import { defineOperation } from "#server/features/operations/operation";
import { bioPageIdSchema } from "./bio-page-input";
import { asVerifiedOwner } from "./verified-owner";

const text = (field: string) => z.string({ error: `${field} must be a string.` });
const flag = (field: string) => z.boolean({ error: `${field} must be true or false.` });

const linkRow = z.object({ type: text("Each link's type"), url: text("Each link's url"), title: text("Each link's title").optional(), enabled: flag("Each link's enabled").optional() });

/** Every section of the editor, as typed: the whole page is the change, so nothing stored shows through. */
const sections = {
  page: z.object({
    name: text("name"),
    customEnding: text("customEnding"),
    blurb: text("blurb"),
    links: z.array(linkRow, { error: "links must be a list of links." }),
    sponsorships: z.array(text("Each sponsorship"), { error: "sponsorships must be a list of ids." }),
  }),
  // null: the section was not sent, and keeps what is stored.
  theme: z.object({ preset: text("preset"), font: text("font"), background: text("background"), text: text("text"), button: text("button"), buttonText: text("buttonText") }).nullable(),
  support: z.object({ acceptTips: flag("acceptTips"), presets: z.array(text("Each preset")), tipMinimum: text("tipMinimum"), thankYouMessage: text("thankYouMessage") }).nullable(),
  wallGoal: z.object({ wallEnabled: flag("wallEnabled"), goalTitle: text("goalTitle"), goalTarget: text("goalTarget"), removeGoal: flag("removeGoal") }).nullable(),
};

/**
 * The Edit bio page's one Save (app/routes/bio/edit-action.server.ts): name, about, links,
 * sponsorship options, look, support block, wall and goal of one of the caller's pages, checked
 * together and written in one transaction, or nothing written. Refusals name their section and
 * field. The API's `PATCH /api/v1/bio-pages/{id}` stays `updateBioPage`, a partial update of the
 * page's own fields.
 */
export const saveBioPageEditor = defineOperation({
  name: "saveBioPageEditor",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema, ...sections }),
  // invalid-argument: INVALID_FIELDS, by section and field; permission-denied: EMAIL_NOT_VERIFIED; not-found: not the caller's page.
  refusals: ["invalid-argument", "permission-denied", "not-found"],
  call: ({ caller, input, deps }) => asVerifiedOwner(deps.db, caller, () => saveBioEditor(deps.db, { uid: caller.uid }, input.pageId, input)),
});
