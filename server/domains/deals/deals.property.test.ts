import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { propertyRuns } from "#tests/support/property-runs";
import { parsedTerms } from "#tests/support/deal-terms";
import { dealActivity, deals, opportunityPosts, profiles, rateLimits, type DealSide } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { moveDeal, type DealMove } from "./act";
import { openDeal } from "./open-deal";
import { DEAL_ACTIONS, DEAL_TRANSITIONS, positionAfter, whyNot, type DealPosition } from "./transitions";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;
const UID: Record<DealSide | "stranger", string> = { creator, sponsor, stranger };

const terms = (price: number) => parsedTerms({ price: String(price) });

type Step =
  | { kind: "move"; who: DealSide | "stranger"; action: (typeof DEAL_ACTIONS)[number]; price: number; stale: boolean; together: boolean }
  | { kind: "payouts"; on: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ kind: fc.constant("move" as const), who: fc.constantFrom("creator" as const, "sponsor" as const, "stranger" as const), action: fc.constantFrom(...DEAL_ACTIONS), price: fc.integer({ min: 1, max: 9_000 }), stale: fc.boolean(), together: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("payouts" as const), on: fc.boolean() }) },
);

const moveOf = (step: Extract<Step, { kind: "move" }>, version: number): DealMove => {
  switch (step.action) {
    case "counter":
      return { action: "counter", terms: terms(step.price) };
    case "accept":
      return { action: "accept", version: step.stale ? version - 1 : version };
    case "decline":
      return { action: "decline", message: "" };
    case "withdraw":
      return { action: "withdraw" };
    case "shortlist":
      return { action: "shortlist", shortlisted: step.stale };
    // Only a booked deal can be cancelled or disputed: here, where nobody pays, the table refuses them all.
    case "request_cancel":
      return { action: "request_cancel", reason: "" };
    case "agree_cancel":
      return { action: "agree_cancel" };
    case "cancel_late":
      return { action: "cancel_late" };
    case "dispute":
      return { action: "dispute", reason: "Not as agreed" };
  }
};

/**
 * Random sequences of both sides' (and a stranger's) actions, some sent twice at once, against the
 * table in transitions.ts as the model: every answer is the one the table gives, the stored state is
 * the model's, and every activity row is one of the table's moves.
 */
describe.each(ENGINES)("a deal's moves on %s", (engine) => {
  const database = migratedDatabase(engine);
  let brief: string;

  beforeAll(async () => {
    await seedDatabase(database.db);
    const [post] = await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, sponsor)).limit(1);
    brief = post!.id;
  });

  it("follow the one table, whoever acts in whatever order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 14 }), async (steps) => {
        const deps = notificationDeps(database.db);
        await database.db.update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, creator));
        // One account opens a deal per run, more in a deep run than a day's limit allows.
        await database.db.delete(rateLimits);
        let payouts = true;
        const opened = await openDeal(database.db, deps, { uid: creator, opportunityId: brief, pitch: "Pitch", links: "", bioPageId: "", terms: terms(100), network: "127.0.0.1" });
        if (opened.kind !== "SUCCESS") throw new Error(opened.message);
        const { dealId } = opened;
        let model: DealPosition & { version: number } = { state: "proposed", waitingOn: "sponsor", openedBy: "creator", version: 1 };

        for (const step of steps) {
          if (step.kind === "payouts") {
            payouts = step.on;
            await database.db.update(profiles).set({ paymentsEnabled: step.on }).where(eq(profiles.uid, creator));
            continue;
          }
          const move = moveOf(step, model.version);
          const send = () => moveDeal(database.db, deps, { uid: UID[step.who], dealId, move, network: "127.0.0.1" });
          const answers = step.together ? await Promise.all([send(), send()]) : [await send()];
          const first = answers.find((a) => a.kind === "SUCCESS") ?? answers[0]!;
          const expected =
            step.who === "stranger"
              ? "NOT_FOUND"
              : (whyNot(step.action, step.who, model) ??
                (step.action === "accept" && step.stale ? "TERMS_CHANGED" : step.action === "accept" && !payouts ? "PAYOUTS_NEEDED" : null));
          expect(first.kind === "SUCCESS" ? null : first.reason).toBe(expected);
          // Sent twice at once, the second finds the first applied: the table refuses it or (shortlist) it changes nothing more.
          if (expected === null && step.who !== "stranger") {
            model = { ...positionAfter(step.action, step.who, model), version: model.version + (step.action === "counter" ? 1 : 0) };
          }
          const [stored] = await database.db.select().from(deals).where(eq(deals.id, dealId));
          expect({ state: stored!.state, waitingOn: stored!.waitingOn, version: stored!.latestVersion }).toEqual({ state: model.state, waitingOn: model.waitingOn, version: model.version });
        }

        const activity = await database.db.select().from(dealActivity).where(eq(dealActivity.dealId, dealId)).orderBy(asc(dealActivity.seq));
        expect(activity.map((a) => a.seq)).toEqual(activity.map((_, i) => i + 1));
        for (const row of activity.slice(1)) {
          const move = DEAL_TRANSITIONS[row.action as keyof typeof DEAL_TRANSITIONS];
          expect(move.from).toContain(row.fromState);
          expect(row.toState).toBe(move.to === "unchanged" ? row.fromState : move.to);
        }
        // Frees the opportunity for the next run: one live deal per person and post.
        if (model.state === "proposed" || model.state === "agreed") {
          const done = await moveDeal(database.db, deps, { uid: creator, dealId, move: { action: "withdraw" }, network: "127.0.0.1" });
          expect(done.kind).toBe("SUCCESS");
        }
      }),
      { numRuns: propertyRuns({ quick: 12, deep: 150 }) },
    );
  }, 600_000);
});
