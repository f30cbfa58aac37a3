import { describe, expect, it } from "vitest";
import type { PaymentCardView } from "./SponsorPaymentCard";
import { mergeHeld } from "./use-cards-held-after-refund";

const card = (id: string, created: string, status: PaymentCardView["status"] = "completed"): PaymentCardView => ({
  id,
  created,
  status,
  refundPending: false,
  dispute: null,
  sponsorEmail: null,
  supporterName: null,
  private: false,
  message: "",
  amount: "$25.00",
  kind: "tip",
});

describe("mergeHeld", () => {
  it("puts a held card the server no longer lists back where it was: newest first, then by id", () => {
    const newest = card("ss_c", "2026-11-25T10:00:00.000Z");
    const held = card("ss_b", "2026-11-25T09:00:00.000Z", "refunded");
    const sameInstant = card("ss_a", "2026-11-25T09:00:00.000Z");
    const oldest = card("ss_d", "2026-11-25T08:00:00.000Z");
    expect(mergeHeld([newest, sameInstant, oldest], [held]).map((c) => c.id)).toEqual(["ss_c", "ss_b", "ss_a", "ss_d"]);
  });

  it("keeps the server's own copy of a card it still lists, and its list as it is when nothing is held", () => {
    const listed = [card("ss_b", "2026-11-25T09:00:00.000Z", "refunded"), card("ss_a", "2026-11-25T08:00:00.000Z")];
    expect(mergeHeld(listed, [card("ss_b", "2026-11-25T09:00:00.000Z", "completed")])).toBe(listed);
    expect(mergeHeld(listed, [])).toBe(listed);
    expect(mergeHeld([], [card("ss_x", "2026-11-25T09:00:00.000Z")]).map((c) => c.id)).toEqual(["ss_x"]);
  });
});
