import { z } from "zod";
import { getOwnPage } from "#server/domains/bio/pages";
import { defineOperation } from "#server/features/operations/operation";
import { bioPageIdSchema } from "./bio-page-input";
import { asVerifiedOwner } from "./verified-owner";

/**
 * One of the caller's bio pages as the editor has it: the Edit bio page's loader, and its
 * action's check that the page is the caller's before any of its forms is read
 * (app/routes/bio/edit.tsx, editor.server.ts), and `GET /api/v1/bio-pages/{id}`. Another
 * account's page is not-found, as a missing one.
 */
export const readBioPage = defineOperation({
  name: "readBioPage",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema }),
  refusals: ["permission-denied", "not-found"],
  call: ({ caller, input, deps }) => asVerifiedOwner(deps.db, caller, () => getOwnPage(deps.db, { uid: caller.uid }, input.pageId)),
});
