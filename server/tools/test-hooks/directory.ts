import { Router } from "express";
import { externalSponsors, opportunityPosts, tags } from "#server/platform/db/schema";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { newOpportunityId } from "#server/domains/opportunities/ids";
import type { ProviderProState } from "#server/providers/payments/port";
import { namePrefixes, nameWords } from "#server/domains/sponsor-directory/names";
import { ensureBillingCustomer } from "#server/domains/pro/customers";
import { syncProMembership } from "#server/domains/pro/sync";
import { HOOK_PATHS, type AddedSponsor, type OpportunityPostAnswer, type ProAnswer } from "./contract";
import { hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

/**
 * Setup for the sponsor directory and the sponsorship options, where a spec needs
 * data no person could make in a few clicks.
 * - `pro` (signed in): the person becomes Pro (Limitless) or, with `clear=1`, not
 *   Pro, through syncProMembership, the one writer of pro_memberships, with the
 *   provider's truth stated rather than bought: buying Pro for real is the Pro
 *   spec's business, and a bought Limitless never ends. Notifications follow as for any change.
 * - `sponsors`: `count` (1…60) directory companies "<prefix> 01"… tagged `tag`, the
 *   first two in the preview sample; each spec passes its own random prefix and tag.
 *   Inserted here: the directory's only writer is the start-up seed from the curated
 *   file (server/tools/seed/sponsor-directory.ts), whose rules (2–5 tags, a source or
 *   the sample flag) a test company does not meet; the seed never touches other ids.
 * - `opportunity-post` (signed in): a post of theirs dated 2001 that the posts total
 *   does not count, so opportunities.spec.ts (total rises by exactly one, newest
 *   pages) sees no difference whichever specs run beside it. Inserted here: the
 *   product's writer (server/domains/opportunities/mutations.ts) dates a post now and counts it.
 */
export function directoryHooks(deps: TestHooksDeps): Router {
  const router = Router();

  router.get(
    HOOK_PATHS.pro,
    hook(async (req): Promise<ProAnswer> => {
      const me = await signedInUser(req, deps);
      const pro = queryOf(req).get("clear") !== "1";
      const customerId = await ensureBillingCustomer(deps.db, deps.payments, { uid: me.id, email: me.email });
      const now = new Date();
      const state: ProviderProState = { customerId, subscriptions: [], lifetimePurchase: pro ? { paymentIntentId: `pi_e2e_${me.id}`, paidAt: now } : null };
      await deps.db.transaction((tx) => syncProMembership(tx, me.id, state, now, notificationDepsOf(deps)));
      return { pro };
    }),
  );

  router.get(
    HOOK_PATHS.sponsors,
    hook(async (req): Promise<AddedSponsor[]> => {
      const query = queryOf(req);
      const prefix = query.get("prefix") ?? "";
      const tag = query.get("tag") ?? "";
      const count = Number(query.get("count") ?? "0");
      if (!/^[a-z][a-z0-9]{2,30}$/.test(prefix) || !/^[a-z][a-z0-9 ]{2,40}$/.test(tag) || !Number.isInteger(count) || count < 1 || count > 60) {
        throw new HookRefusal(400, "prefix (lowercase letters/digits), tag and count (1…60) please");
      }
      await deps.db.insert(tags).values({ kind: "external_sponsor", name: tag }).onConflictDoNothing();
      const added = new Date();
      const rows = Array.from({ length: count }, (_, i) => {
        const n = String(i + 1).padStart(2, "0");
        const name = `${prefix} ${n}`;
        const words = nameWords(name);
        return {
          id: `${prefix}-${n}`,
          name,
          nameArray: words,
          namePrefixes: namePrefixes(words),
          tags: [tag],
          blurb: `${name} sponsors creators in the end-to-end suite.`,
          preview: `${name} works with creators.`,
          inPreviewSample: i < 2,
          website: `https://${prefix}-${n}.example`,
          details: { sponsors: "Channels of every size.", formats: ["Integrated video read", "Affiliate code"], apply: "Through their creator program.", applyUrl: `https://${prefix}-${n}.example/creators` },
          addedAt: new Date(added.getTime() + i),
        };
      });
      await deps.db.insert(externalSponsors).values(rows).onConflictDoNothing();
      return rows.map((row) => ({ id: row.id, name: row.name }));
    }),
  );

  router.get(
    HOOK_PATHS.opportunityPost,
    hook(async (req): Promise<OpportunityPostAnswer> => {
      const me = await signedInUser(req, deps);
      const query = queryOf(req);
      const min = Number(query.get("min") ?? "0");
      if (!Number.isSafeInteger(min) || min < 0) throw new HookRefusal(400, "min must be whole cents");
      const posted = new Date(Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 86_400_000));
      const id = newOpportunityId(posted);
      await deps.db.insert(opportunityPosts).values({
        id,
        title: query.get("title") || "E2E sponsorship",
        description: "A post made by the end-to-end suite.",
        posterUid: me.id,
        posterName: me.name,
        minContributionCents: min,
        datePosted: posted,
        updatedAt: posted,
      });
      return { id };
    }),
  );
  return router;
}
