import { describe, expect, it } from "vitest";
import { paymentReceivedWords, refundDoneMessage, supporterInNotice } from "./payment-notices";

const tip = { kind: "tip" as const, amount: "$25.00", supporterName: "Maya Fan", private: false, pageName: "Maya's Kitchen" };

describe("what a payment's notification says", () => {
  it("puts the amount and the supporter's name in the title, which is also the mail's subject", () => {
    expect(paymentReceivedWords(tip)).toEqual({
      title: "Maya Fan tipped you $25.00",
      message: "A tip through Maya's Kitchen. Their message, Refund and the CSV export are on Supporters.",
    });
    expect(paymentReceivedWords({ ...tip, kind: "sponsorship" }).title).toBe("Maya Fan paid you $25.00 for a sponsorship");
    expect(paymentReceivedWords({ ...tip, pageName: null }).message).toBe("Their message, Refund and the CSV export are on Supporters.");
  });

  it("says Someone without a name, and never the email typed for a receipt", () => {
    expect(paymentReceivedWords({ ...tip, supporterName: null }).title).toBe("Someone tipped you $25.00");
    expect(paymentReceivedWords({ ...tip, supporterName: "   " }).title).toBe("Someone tipped you $25.00");
    expect(supporterInNotice({ supporterName: "  Maya \t Fan ", private: false })).toBe("Maya Fan");
  });

  it("keeps a private supporter's name out, as the public wall does, and tells the creator where it is", () => {
    const words = paymentReceivedWords({ ...tip, private: true });
    expect(words.title).toBe("A private supporter tipped you $25.00");
    expect(`${words.title} ${words.message}`).not.toContain("Maya Fan");
    expect(words.message).toContain("their name is on Supporters only");
    expect(refundDoneMessage({ ...tip, private: true })).toBe("The $25.00 tip from a private supporter was refunded.");
  });

  it("cuts a long name so the amount stays in sight in a subject line", () => {
    const title = paymentReceivedWords({ ...tip, supporterName: "N".repeat(99) }).title;
    expect(title).toBe(`${"N".repeat(59)}… tipped you $25.00`);
  });

  it("says what was refunded and from whom", () => {
    expect(refundDoneMessage(tip)).toBe("The $25.00 tip from Maya Fan was refunded.");
    expect(refundDoneMessage({ ...tip, kind: "sponsorship", supporterName: null })).toBe("The $25.00 sponsorship from someone was refunded.");
  });
});
