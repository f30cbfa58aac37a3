import crypto from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { Router } from "express";
import { createBioPage, listOwnPages } from "#server/domains/bio/pages";
import { buildSponsorSession } from "#server/domains/payments/checkout/sponsor-session";
import { connectedAccounts, membershipTiers, memberships, sponsorSessions } from "#server/platform/db/schema";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import { sandboxFor } from "#server/providers/payments/sandbox/runtime";
import type { CreatorMembersAnswer } from "./contract";
import { HOOK_PATHS } from "./contract";
import { hook, HookRefusal, signedInUser, type TestHooksDeps } from "./http";

const DAY = 86_400_000;
const TEST_CARD = { number: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", postalCode: "10001" };

/**
 * `creator-members` (signed in, payout account ready): the signed-in creator's page gets two
 * tiers and five members, one in each state, the first with two paid periods.
 * - The tiers and memberships are direct writes: their writers (the tiers editor, and the one
 *   writer that converges a membership on the provider's truth) are built beside this hook, and no
 *   domain function here makes a membership of a given state and age.
 * - Each paid period is a real payment: a checkout opened by `buildSponsorSession`, paid at the
 *   sandbox with the 4242 card and settled by its event through our webhook, so its Refund reaches
 *   the sandbox as any payment's does; only then is the row marked as the membership's period (a
 *   direct write, as the paid-period writer is built beside this hook too).
 */
export function memberHooks(deps: TestHooksDeps): Router {
  const router = Router();

  router.get(
    HOOK_PATHS.creatorMembers,
    hook(async (req): Promise<CreatorMembersAnswer> => {
      const me = await signedInUser(req, deps);
      if (deps.payments.name !== "sandbox") throw new HookRefusal(409, "Only with the sandbox provider");
      const sandbox = sandboxFor(deps);
      const db = deps.db;
      const [account] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, me.id));
      if (!account?.providerAccountId) throw new HookRefusal(409, "Make the payout account ready first (payments?ready=true)");
      let [page] = await listOwnPages(db, me.id);
      if (!page) {
        const created = await createBioPage(db, { uid: me.id }, { name: `${me.name || "E2E"} Page`, customEnding: "", blurb: "Members welcome.", links: [], sponsorships: [] });
        if (created.kind === "ERROR") throw new HookRefusal(500, created.message);
        [page] = await listOwnPages(db, me.id);
      }
      const tag = crypto.randomBytes(3).toString("hex");
      const bronze = `tier_${tag}_bronze`;
      const gold = `tier_${tag}_gold`;
      await db.insert(membershipTiers).values([
        { id: bronze, bioPageId: page!.id, name: "Bronze", monthlyPrice: 500, position: 0 },
        { id: gold, bioPageId: page!.id, name: "Gold", monthlyPrice: 1000, yearlyPrice: 10_000, position: 1 },
      ]);
      const now = Date.now();
      const at = (days: number) => new Date(now + days * DAY);
      const base = { bioPageId: page!.id, creatorUid: me.id, provider: "sandbox", destinationAccountId: account.providerAccountId, currency: "usd" };
      const id = (name: string) => `mem_${tag}_${name}`;
      const members = {
        ada: id("ada"),
        bea: id("bea"),
        cy: id("cy"),
        di: id("di"),
        ed: id("ed"),
      };
      await db.insert(memberships).values([
        { ...base, id: members.ada, tierId: bronze, memberName: `Ada ${tag}`, memberEmail: `ada-${tag}@member.example`, status: "active", amount: 500, startedAt: at(-40), currentPeriodEnd: at(20), providerSubscriptionId: `sub_${members.ada}` },
        { ...base, id: members.bea, tierId: gold, memberName: `Bea ${tag}`, private: true, memberEmail: `bea-${tag}@member.example`, status: "active", interval: "year", amount: 10_000, startedAt: at(0), currentPeriodEnd: at(365), providerSubscriptionId: `sub_${members.bea}` },
        { ...base, id: members.cy, tierId: bronze, memberName: `Cy ${tag}`, memberEmail: `cy-${tag}@member.example`, status: "past_due", amount: 500, startedAt: at(-70), currentPeriodEnd: at(-1), providerSubscriptionId: `sub_${members.cy}` },
        { ...base, id: members.di, tierId: gold, memberName: `Di ${tag}`, memberEmail: `di-${tag}@member.example`, status: "cancelled", cancelAtPeriodEnd: true, amount: 1000, startedAt: at(-50), currentPeriodEnd: at(10), providerSubscriptionId: `sub_${members.di}` },
        { ...base, id: members.ed, tierId: bronze, memberName: `Ed ${tag}`, memberEmail: `ed-${tag}@member.example`, status: "ended", amount: 500, startedAt: at(-120), endedAt: at(-45), providerSubscriptionId: `sub_${members.ed}` },
      ]);

      const periods: string[] = [];
      for (let i = 0; i < 2; i++) {
        const email = `ada-${tag}@member.example`;
        const built = await buildSponsorSession(
          db,
          deps.payments,
          { ending: page!.customEnding, kind: "tip", amount: 500, sponsorEmail: email, message: `Membership period ${i + 1}`, supporterName: `Ada ${tag}`, private: false, sponsorUid: null, client: null },
          { platformFeePercent: deps.config.PLATFORM_FEE_PERCENT, publicOrigin: deps.config.PUBLIC_ORIGIN },
        );
        if (built.kind === "ERROR") throw new HookRefusal(409, built.message);
        const [row] = await db.select({ checkoutId: sponsorSessions.providerCheckoutId }).from(sponsorSessions).where(eq(sponsorSessions.id, built.sessionId));
        const paid = await payCheckout(db, row!.checkoutId!, { email, ...TEST_CARD }, sandbox.now(), sandbox.whyPayeeCannotBePaid);
        if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new HookRefusal(500, "The period's checkout was not paid");
        periods.push(built.sessionId);
      }
      for (let attempt = 0; ; attempt++) {
        await sandbox.deliverPendingSandboxEvents();
        const rows = await db.select({ status: sponsorSessions.status }).from(sponsorSessions).where(inArray(sponsorSessions.id, periods));
        if (rows.every((r) => r.status === "completed")) break;
        if (attempt > 100) throw new HookRefusal(504, "The periods' payments did not complete");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await db.update(sponsorSessions).set({ kind: "membership", membershipId: members.ada }).where(inArray(sponsorSessions.id, periods));
      return { pageId: page!.id, tiers: { bronze, gold }, members, names: { ada: `Ada ${tag}`, bea: `Bea ${tag}`, cy: `Cy ${tag}`, di: `Di ${tag}`, ed: `Ed ${tag}` }, periods };
    }),
  );

  return router;
}
