import { describe, expect, it } from "vitest";
import { createSandboxProvider } from "./provider";
import { signatureHeader, webhookSigningKey } from "./signing";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const SECRET = "a-session-secret-of-at-least-32-characters";
const NOW = new Date("2026-11-22T18:00:00Z");
const t = Math.floor(NOW.getTime() / 1000);
const clock = { now: NOW };
// parseWebhook reads no database.
const sandbox = createSandboxProvider({ db: null as never, config: { PUBLIC_ORIGIN: "http://app.test" }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, now: () => clock.now });
const key = webhookSigningKey(SECRET);

const event = {
  provider: "sandbox",
  eventId: "evt_sbx_000000000000000000000001",
  occurredAt: NOW.toISOString(),
  type: "checkout.completed",
  checkoutId: "cs_sbx_000000000000000000000001",
  sessionId: "s1",
  paymentIntentId: "pi_sbx_000000000000000000000001",
  paymentStatus: "paid",
  amount: 2500,
  currency: "usd",
};
const raw = (body: unknown) => Buffer.from(JSON.stringify(body));
const badSignature = { kind: "ERROR", code: "invalid-argument", reason: "BAD_SIGNATURE" };
const eventIdOf = (parsed: ReturnType<typeof sandbox.parseWebhook>) => (parsed.kind === "SUCCESS" ? parsed.event?.eventId : undefined);

describe("sandbox parseWebhook", () => {
  it("derives its key from the session secret as the brief says", () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(webhookSigningKey("another-secret-of-at-least-32-characters!")).not.toBe(key);
  });

  it("returns our event for a good signature", () => {
    const body = raw(event);
    // An event queued before checkout events carried the payer's address reads as having none, and
    // one queued before deals existed as a sponsor checkout's.
    expect(sandbox.parseWebhook(body, signatureHeader(key, body, t))).toEqual({ kind: "SUCCESS", event: { ...event, customerEmail: null, purpose: "sponsor", occurredAt: NOW } });
    const withEmail = raw({ ...event, customerEmail: "fan@mail.example" });
    expect(sandbox.parseWebhook(withEmail, signatureHeader(key, withEmail, t))).toMatchObject({ kind: "SUCCESS", event: { customerEmail: "fan@mail.example" } });
    const deal = raw({ ...event, purpose: "deal" });
    expect(sandbox.parseWebhook(deal, signatureHeader(key, deal, t))).toMatchObject({ kind: "SUCCESS", event: { purpose: "deal", sessionId: "s1" } });
    const unknown = raw({ ...event, purpose: "gift" });
    expect(sandbox.parseWebhook(unknown, signatureHeader(key, unknown, t))).toMatchObject(badSignature);
  });

  it("accepts a header with several signatures when one matches (key rotation)", () => {
    const body = raw(event);
    const header = `t=${t},v1=${"0".repeat(64)},${signatureHeader(key, body, t).split(",")[1]}`;
    expect(eventIdOf(sandbox.parseWebhook(body, header))).toBe(event.eventId);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["no timestamp", `v1=${"a".repeat(64)}`],
    ["no signature", `t=${t}`],
    ["a wrong signature", `t=${t},v1=${"a".repeat(64)}`],
    ["a short signature", `t=${t},v1=abc`],
    ["garbage", "\u0000\u0000"],
  ])("refuses %s", (_name, header) => {
    expect(sandbox.parseWebhook(raw(event), header)).toMatchObject(badSignature);
  });

  it("refuses a body changed after signing, and a key from another secret", () => {
    const body = raw(event);
    const header = signatureHeader(key, body, t);
    expect(sandbox.parseWebhook(raw({ ...event, amount: 1 }), header)).toMatchObject({ ...badSignature, message: "No signature matches the body" });
    const forged = signatureHeader(webhookSigningKey("someone-else's-secret-of-32-characters"), body, t);
    expect(sandbox.parseWebhook(body, forged)).toMatchObject({ ...badSignature, message: "No signature matches the body" });
  });

  it("refuses a stale signature (older than 300 s) and one from the future", () => {
    const body = raw(event);
    expect(sandbox.parseWebhook(body, signatureHeader(key, body, t - 301))).toMatchObject({ ...badSignature, message: expect.stringMatching(/stale/) });
    expect(eventIdOf(sandbox.parseWebhook(body, signatureHeader(key, body, t - 300)))).toBe(event.eventId);
    expect(sandbox.parseWebhook(body, signatureHeader(key, body, t + 301))).toMatchObject(badSignature);
  });

  it("parses a replay within the tolerance to the same event id (intake records it once), and refuses it later", () => {
    const body = raw(event);
    const header = signatureHeader(key, body, t);
    const first = sandbox.parseWebhook(body, header);
    const replay = sandbox.parseWebhook(body, header);
    expect(eventIdOf(first)).toBe(event.eventId);
    expect(eventIdOf(replay)).toBe(eventIdOf(first));
    clock.now = new Date(NOW.getTime() + 301_000);
    try {
      expect(sandbox.parseWebhook(body, header)).toMatchObject(badSignature);
    } finally {
      clock.now = NOW;
    }
  });

  it("returns null for an event type we do not handle, and refuses a signed body that is not a sandbox event", () => {
    const unknown = raw({ ...event, type: "payout.paid" });
    expect(sandbox.parseWebhook(unknown, signatureHeader(key, unknown, t))).toEqual({ kind: "SUCCESS", event: null });
    for (const bad of [{ ...event, provider: "stripe" }, { ...event, amount: -5 }, { ...event, currency: "USD" }]) {
      const body = raw(bad);
      expect(sandbox.parseWebhook(body, signatureHeader(key, body, t))).toMatchObject({ ...badSignature, message: "The signed body is not a sandbox event" });
    }
    const notJson = Buffer.from("{not json");
    expect(sandbox.parseWebhook(notJson, signatureHeader(key, notJson, t))).toMatchObject({ kind: "ERROR", reason: "NOT_JSON", message: "The signed body is not JSON" });
  });
});
