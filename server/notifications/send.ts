import type { Db } from "#server/db/client";
import { notifications } from "#server/db/schema";
import type { NotificationKind } from "./kinds";

export type NotificationInput = {
  uid: string;
  kind: NotificationKind;
  title: string;
  message: string;
  buttonText?: string;
  buttonDestination?: string;
};

/** A database or an open transaction: alerts are written by whoever made the change they report. */
type Writer = Pick<Db, "insert">;

/**
 * Writes one alert (SPEC §3 alerts) with the caller's executor, so that it is
 * committed with the change it reports, or not at all: a payment that rolls
 * back leaves no "payment received" behind, and a retried event that is
 * already handled writes none twice.
 */
export async function sendNotification(tx: Writer, input: NotificationInput): Promise<void> {
  await tx.insert(notifications).values({
    uid: input.uid,
    kind: input.kind,
    title: input.title,
    message: input.message,
    buttonText: input.buttonText ?? null,
    buttonDestination: input.buttonDestination ?? null,
  });
}
