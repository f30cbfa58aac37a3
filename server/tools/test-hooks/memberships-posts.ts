import { Router } from "express";
import { nanoid } from "nanoid";
import { parseBioPageForm } from "#server/domains/bio/form";
import { createBioPage } from "#server/domains/bio/pages";
import { memberLinkKey, memberPath, signMemberToken } from "#server/domains/memberships/member-link";
import { memberships, membershipTiers } from "#server/platform/db/schema";
import { HOOK_PATHS, type MembershipsPostsSeedAnswer, type SeededMember } from "./contract";
import { hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

const DAY_MS = 86_400_000;

/**
 * - `memberships-posts-seed` (signed in, verified): a bio page made through createBioPage, with
 *   the tiers Gold and Silver, two current members of each and one Gold member whose membership
 *   ended, their addresses `<prefix>.<name>@e2e.example`; answers each member's signed link.
 *   The tiers and memberships are direct writes: a spec about posts needs members of two tiers at
 *   once, which the product makes only through paid subscription checkouts and the provider's
 *   events (the join and the one writer of memberships, their own specs' subject).
 */
export function membershipsPostsHooks(deps: TestHooksDeps): Router {
  const router = Router();
  const key = memberLinkKey(deps.sessionSecret);

  router.get(
    HOOK_PATHS.membershipsPostsSeed,
    hook(async (req): Promise<MembershipsPostsSeedAnswer> => {
      const me = await signedInUser(req, deps, { verified: true });
      const prefix = queryOf(req).get("prefix") ?? "";
      if (!/^[a-z0-9-]{1,30}$/.test(prefix)) throw new HookRefusal(400, "Give a prefix of lowercase letters, digits and dashes");
      const parsed = parseBioPageForm({ name: "Posts Studio", customEnding: "", blurb: "", links: [], sponsorships: [] });
      if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
      const created = await createBioPage(deps.db, { uid: me.id }, parsed.form);
      if (created.kind !== "SUCCESS") throw new HookRefusal(409, created.message);
      const tiers = { Gold: `mtier_${nanoid(12)}`, Silver: `mtier_${nanoid(12)}` };
      await deps.db.insert(membershipTiers).values([
        { id: tiers.Gold, bioPageId: created.id, name: "Gold", monthlyPrice: 1000, position: 0 },
        { id: tiers.Silver, bioPageId: created.id, name: "Silver", monthlyPrice: 500, position: 1 },
      ]);
      const now = Date.now();
      const seeded: SeededMember[] = [];
      const people: { name: string; tier: "Gold" | "Silver"; status: "active" | "ended" }[] = [
        { name: "gold-ana", tier: "Gold", status: "active" },
        { name: "gold-ben", tier: "Gold", status: "active" },
        { name: "gold-old", tier: "Gold", status: "ended" },
        { name: "silver-cy", tier: "Silver", status: "active" },
        { name: "silver-di", tier: "Silver", status: "active" },
      ];
      for (const person of people) {
        const id = `mship_${nanoid(16)}`;
        const email = `${prefix}.${person.name}@e2e.example`;
        await deps.db.insert(memberships).values({
          id,
          tierId: tiers[person.tier],
          bioPageId: created.id,
          creatorUid: me.id,
          memberEmail: email,
          memberName: person.name,
          provider: "sandbox",
          destinationAccountId: "acct_seeded",
          amount: person.tier === "Gold" ? 1000 : 500,
          status: person.status,
          startedAt: new Date(now - 40 * DAY_MS),
          currentPeriodEnd: new Date(person.status === "ended" ? now - DAY_MS : now + 20 * DAY_MS),
          endedAt: person.status === "ended" ? new Date(now - DAY_MS) : null,
        });
        seeded.push({ ...person, email, memberUrl: `${deps.config.PUBLIC_ORIGIN}${memberPath(signMemberToken(key, id, 1))}` });
      }
      return { pageId: created.id, pageName: "Posts Studio", customEnding: created.customEnding, tiers, members: seeded };
    }),
  );
  return router;
}
