import crypto from "node:crypto";
import { Router } from "express";
import { parseBioPageForm } from "#server/domains/bio/form";
import { createBioPage } from "#server/domains/bio/pages";
import { memberLinkKey, memberPath, signMemberToken } from "#server/domains/memberships/member-link";
import { membershipTiers, memberships, type MembershipStatus } from "#server/platform/db/schema";
import { HOOK_PATHS, type MemberPageAnswer } from "./contract";
import { hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

const DAY_MS = 86_400_000;
const STATUSES = ["active", "past_due", "cancelled", "ended"] as const satisfies readonly MembershipStatus[];

/**
 * - `member-page` (signed in, verified: the creator): a bio page through createBioPage, three
 *   tiers and one membership of its first tier for `memberEmail`, and that membership's member
 *   link. The tiers and the membership are direct writes, said here: the tiers' editor and the
 *   membership writer (which converges on the provider's subscription) are built in parts of
 *   their own, and the member page needs only the rows they leave after a paid checkout.
 */
export function memberPageHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.get(
    HOOK_PATHS.memberPage,
    hook(async (req): Promise<MemberPageAnswer> => {
      const creator = await signedInUser(req, deps, { verified: true });
      const query = queryOf(req);
      const memberEmail = query.get("memberEmail") ?? "";
      if (!memberEmail.includes("@")) throw new HookRefusal(400, "memberEmail is required");
      const status = (query.get("status") ?? "active") as (typeof STATUSES)[number];
      if (!STATUSES.includes(status)) throw new HookRefusal(400, `status is one of ${STATUSES.join(", ")}`);
      const parsed = parseBioPageForm({ name: query.get("name") ?? "Member page test", customEnding: "", blurb: "", links: [], sponsorships: [] });
      if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
      const created = await createBioPage(deps.db, { uid: creator.id }, parsed.form);
      if (created.kind !== "SUCCESS") throw new HookRefusal(409, created.message);
      const tag = crypto.randomBytes(5).toString("hex");
      const tierOf = (name: string) => `tier_${tag}_${name}`;
      await deps.db.insert(membershipTiers).values([
        { id: tierOf("gold"), bioPageId: created.id, name: "Gold", monthlyPrice: 500, yearlyPrice: 5000, benefits: ["A monthly behind-the-scenes video", "Your name in the credits"], position: 0 },
        { id: tierOf("silver"), bioPageId: created.id, name: "Silver", monthlyPrice: 800, benefits: ["Early access to every video"], position: 1 },
        { id: tierOf("paused"), bioPageId: created.id, name: "Paused tier", monthlyPrice: 1500, status: "paused", position: 2 },
      ]);
      const now = Date.now();
      const ended = status === "ended";
      const membershipId = `mem_${tag}`;
      await deps.db.insert(memberships).values({
        id: membershipId,
        tierId: tierOf("gold"),
        bioPageId: created.id,
        creatorUid: creator.id,
        memberEmail,
        memberName: "A member",
        provider: deps.payments.name,
        providerSubscriptionId: `sub_hook_${tag}`,
        providerCustomerId: `cus_hook_${tag}`,
        destinationAccountId: `acct_hook_${tag}`,
        amount: 500,
        status,
        cancelAtPeriodEnd: status === "cancelled",
        currentPeriodEnd: new Date(ended ? now - DAY_MS : now + 20 * DAY_MS),
        startedAt: new Date(now - 10 * DAY_MS),
        endedAt: ended ? new Date(now - DAY_MS) : null,
      });
      const path = memberPath(signMemberToken(memberLinkKey(deps.sessionSecret), membershipId, 1));
      return { membershipId, path, pageName: parsed.form.name, ending: created.customEnding };
    }),
  );
  return router;
}
