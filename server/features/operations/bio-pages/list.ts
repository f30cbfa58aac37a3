import { z } from "zod";
import { ownPagesWithReadiness } from "#server/domains/bio/readiness";
import { defineOperation } from "#server/features/operations/operation";
import { asVerifiedOwner } from "./verified-owner";

/**
 * The caller's own bio pages, last updated first, each with its views and whether it can take
 * money yet: the Your Pages dashboard (app/routes/bio/dashboard.tsx) and `GET /api/v1/bio-pages`.
 * One statement reads them (readiness.ts); the API shows the summary of each, a page at a time by
 * its own cursor, and the dashboard its checklist too.
 */
export const listBioPages = defineOperation({
  name: "listBioPages",
  who: "account-holder",
  input: z.object({}),
  // permission-denied: EMAIL_NOT_VERIFIED, the account's address is not verified now.
  refusals: ["permission-denied"],
  call: ({ caller, deps }) =>
    asVerifiedOwner(deps.db, caller, async () => ({ kind: "SUCCESS" as const, pages: await ownPagesWithReadiness(deps.db, caller.uid) })),
});
