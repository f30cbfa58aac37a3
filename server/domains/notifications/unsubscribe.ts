import type { Db } from "#server/platform/db/client";
import { domainError, success, type DomainError, type Success } from "#server/platform/errors";
import { NOTIFICATION_CATALOGUE, type NotificationKind } from "./kinds";
import { turnMailOff } from "./preferences";
import { checkUnsubscribeToken } from "./unsubscribe-token";

export type UnsubscribeTarget = Success<{ uid: string; notificationKind: NotificationKind; label: string }>;

/** What an unsubscribe link would turn off, or why it turns off nothing; reads and writes nothing. */
export function readUnsubscribeLink(key: string, token: string): UnsubscribeTarget | DomainError<"invalid-argument" | "not-found"> {
  const checked = checkUnsubscribeToken(key, token);
  if (checked.kind === "ERROR") return checked;
  return success({ uid: checked.uid, notificationKind: checked.notificationKind, label: NOTIFICATION_CATALOGUE[checked.notificationKind].label });
}

/**
 * Follows an unsubscribe link (the confirm button, or a mail client's RFC 8058
 * one-click POST): that kind's mail off for that person. Signed out on
 * purpose: the signature is the permission. Following it again changes nothing.
 */
export async function unsubscribe(db: Db, key: string, token: string): Promise<UnsubscribeTarget | DomainError<"invalid-argument" | "not-found">> {
  const target = readUnsubscribeLink(key, token);
  if (target.kind === "ERROR") return target;
  if (!(await turnMailOff(db, target.uid, target.notificationKind))) return domainError("not-found", "This account no longer exists, so it gets no email from us.");
  return target;
}
