import crypto from "node:crypto";
import { Router } from "express";
import { createBioPage, listOwnPages } from "#server/domains/bio/pages";
import { MEMBERSHIP_STATUSES, memberships, membershipTiers, type MembershipStatus } from "#server/platform/db/schema";
import { HOOK_PATHS, type StaffMembershipsAnswer } from "./contract";
import { hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

/**
 * `staff-memberships` (signed in as the creator): a tier on their page and one membership per
 * status asked for (`statuses=active,past_due,…`), each with a member address of its own, for the
 * back office's memberships list. Direct writes, test-only setup: the one writer makes a
 * membership only from the provider's truth after a paid checkout, and a spec of the staff list
 * needs memberships in every status, which a month of the sandbox's clock would take to reach.
 * The back office only reads them.
 */
export function staffMembershipHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.get(
    HOOK_PATHS.staffMemberships,
    hook(async (req): Promise<StaffMembershipsAnswer> => {
      const me = await signedInUser(req, deps);
      const query = queryOf(req);
      const statuses = (query.get("statuses") ?? "active").split(",").filter(Boolean);
      const unknown = statuses.find((status) => !(MEMBERSHIP_STATUSES as readonly string[]).includes(status));
      if (unknown || statuses.length === 0 || statuses.length > 20) throw new HookRefusal(400, `statuses must be 1 to 20 of ${MEMBERSHIP_STATUSES.join(", ")}`);
      const tierName = (query.get("tier") ?? "Gold").slice(0, 60);
      const amount = Number(query.get("amount") ?? 700);
      let [page] = await listOwnPages(deps.db, me.id);
      if (!page) {
        const created = await createBioPage(deps.db, { uid: me.id }, { name: `${me.name || "E2E"} Page`, customEnding: "", blurb: "Members welcome.", links: [], sponsorships: [] });
        if (created.kind === "ERROR") throw new HookRefusal(500, created.message);
        [page] = await listOwnPages(deps.db, me.id);
      }
      const key = crypto.randomBytes(4).toString("hex");
      const tierId = `tier_${key}`;
      await deps.db.insert(membershipTiers).values({ id: tierId, bioPageId: page!.id, name: tierName, monthlyPrice: amount });
      const made = statuses.map((status, index) => ({
        id: `mem_${key}_${index}`,
        status: status as MembershipStatus,
        memberEmail: `member-${key}-${index}@fan.example`,
      }));
      // One after the other, a millisecond apart, so "newest first" has one answer.
      const start = Date.now() - made.length;
      await deps.db.insert(memberships).values(
        made.map((m, index) => ({
          id: m.id,
          tierId,
          bioPageId: page!.id,
          creatorUid: me.id,
          memberEmail: m.memberEmail,
          memberName: `Member ${index + 1}`,
          provider: "sandbox",
          providerSubscriptionId: `sub_${key}_${index}`,
          destinationAccountId: `acct_${key}`,
          amount,
          status: m.status,
          currentPeriodEnd: new Date(Date.UTC(2031, 0, 15)),
          created: new Date(start + index),
        })),
      );
      return { pageEnding: page!.customEnding, tierName, memberships: made };
    }),
  );
  return router;
}
