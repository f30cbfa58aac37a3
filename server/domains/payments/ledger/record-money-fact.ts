import type { Db } from "#server/platform/db/client";
import { moneyEvents } from "#server/platform/db/schema";
import type { MailMessage } from "#server/platform/email/mailer";
import { moneyEventKey, type MoneyEvent } from "#server/domains/payments/ledger/money-events";
import { fanOut } from "#server/domains/payments/notices/fan-out";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";

/**
 * Records a money fact with the writer's transaction (the one that wrote its ledger rows or its
 * state, after them, so what is told reads the new state) and tells everyone the fan-out table
 * names, in that same transaction: the fact, its notification, mails and webhook are committed
 * together or not at all. A fact already recorded under its key (the same movement reported
 * again, by another event or a redelivery) is told nobody again: false.
 *
 * `prepared`: mails the writer rendered before its transaction (a payment's receipts), so no
 * rendering holds its row lock.
 */
export async function recordMoneyFact(tx: Db, event: MoneyEvent, deps: FanOutDeps, { now = new Date(), prepared = [] }: { now?: Date; prepared?: readonly MailMessage[] } = {}): Promise<boolean> {
  const { type, ...payload } = event;
  const [row] = await tx
    .insert(moneyEvents)
    .values({
      type,
      key: moneyEventKey(event),
      sessionId: "sessionId" in event ? event.sessionId : null,
      uid: "uid" in event ? event.uid : null,
      payload,
      createdAt: now,
    })
    .onConflictDoNothing({ target: moneyEvents.key })
    .returning({ id: moneyEvents.id });
  if (!row) return false;
  await fanOut(tx, event, deps, { now, prepared });
  return true;
}
