import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_CATALOGUE } from "#server/domains/notifications/kinds";
import { MONEY_EVENT_TYPES } from "#server/domains/payments/ledger/money-events";
import { MONEY_FAN_OUT } from "#server/domains/payments/notices/fan-out";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/** The product's server modules (tests, which call the platform directly to set things up, left out). */
function serverModules(): { file: string; text: string }[] {
  return fs
    .readdirSync(path.join(ROOT, "server"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }));
}

/** The notifications a money fact sends: only the fan-out's rows may write them. */
const MONEY_NOTIFICATION_KINDS = [
  "payment-received",
  "refund-done",
  "dispute-opened",
  "dispute-closed",
  "payouts-enabled",
  "pro-started",
  "pro-renewal-failed",
  "pro-ended",
  "member-joined",
  "member-renewed",
  "member-cancelled",
  "member-ended",
];

describe("the money facts' fan-out table", () => {
  it("has one row per money event type, each saying its notification, mails and webhook (null: none)", () => {
    expect(Object.keys(MONEY_FAN_OUT).sort()).toEqual([...MONEY_EVENT_TYPES].sort());
    for (const type of MONEY_EVENT_TYPES) {
      const row = MONEY_FAN_OUT[type];
      expect(Object.keys(row).sort(), type).toEqual(["mails", "notification", "webhook"]);
      expect(row.notification !== null || row.webhook !== null, `${type} tells somebody`).toBe(true);
    }
  });

  it("names notification kinds the catalogue knows", () => {
    for (const kind of MONEY_NOTIFICATION_KINDS) expect(NOTIFICATION_CATALOGUE, kind).toHaveProperty(kind);
  });
});

describe("nobody tells of a money fact by hand", () => {
  const modules = serverModules();

  it("queues outgoing webhook events only in the fan-out, and for facts that are not money", () => {
    const callers = modules.filter((m) => /\bqueueWebhookEvent\(/.test(m.text)).map((m) => m.file);
    expect(callers.sort()).toEqual([
      // notification.created, for every notification whatever it reports: the notifications' own.
      // deal.*, each step of a deal as both sides are told of it (booked and paid out too: deal states, told with the step, as their notifications are).
      "server/domains/deals/deal-events.ts",
      "server/domains/notifications/send.ts",
      // opportunity.hearted, batched: not money.
      "server/domains/opportunities/hearted-webhooks.ts",
      "server/domains/payments/notices/fan-out.ts",
      // The definition.
      "server/platform/outgoing-webhooks/queue.ts",
    ]);
  });

  it("writes a money notification only through the fan-out: no module that sends notifications names a money kind", () => {
    const senders = modules.filter((m) => /\bsendNotification\(/.test(m.text) && m.file !== "server/domains/payments/notices/fan-out.ts");
    const namingMoney = senders.filter((m) => MONEY_NOTIFICATION_KINDS.some((kind) => m.text.includes(`"${kind}"`))).map((m) => m.file);
    expect(namingMoney).toEqual([]);
  });
});
