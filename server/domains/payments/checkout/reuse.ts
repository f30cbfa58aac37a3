import crypto from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions, type SponsorSessionKind } from "#server/platform/db/schema";

/**
 * The same browser sending the same checkout form again (a double click, the
 * back button after the provider's page, a reload) is sent back to the
 * checkout it already opened instead of making the provider create another
 *.
 *
 * The browser is known by a random token in a short-lived, HttpOnly cookie,
 * set by the checkout page; nothing about the person is in it. A session is
 * found again only by the hash of that token together with every fact of the
 * form (page, option, amount, email, message, name, privacy, who is signed in): another
 * browser cannot compute it, and even the same browser gets someone else's
 * checkout only by typing exactly what was typed for it. Only a session that
 * is still pending and open for a while longer is reused.
 */

export const CHECKOUT_COOKIE = "sg_checkout";
/** As long as the provider's shortest checkout (Stripe's, an hour): a cookie outliving it could reuse nothing. */
export const CHECKOUT_COOKIE_MAX_AGE_SECONDS = 60 * 60;
/** A checkout closing sooner is not handed out again: the person needs time to pay. */
export const REUSE_MIN_REMAINING_MS = 10 * 60 * 1000;

const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/** The browser's checkout token from a Cookie header, or null (absent, or not one of ours). */
export function readCheckoutToken(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CHECKOUT_COOKIE) {
      const value = rest.join("=");
      return TOKEN.test(value) ? value : null;
    }
  }
  return null;
}

export function newCheckoutToken(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/**
 * The Set-Cookie value that keeps `token` in this browser, for the checkout
 * and its result pages only (the success page shows the receipt's address in
 * full only to the browser whose token made the checkout).
 */
export function checkoutCookie(token: string, https: boolean): string {
  return `${CHECKOUT_COOKIE}=${token}; Path=/app/payments; Max-Age=${CHECKOUT_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${https ? "; Secure" : ""}`;
}

export type CheckoutFacts = {
  pageId: string;
  kind: SponsorSessionKind;
  postId: string | null;
  amount: number;
  currency: string;
  sponsorEmail: string | null;
  message: string;
  sponsorUid: string | null;
  supporterName: string | null;
  private: boolean;
};

export function checkoutReuseKey(token: string, facts: CheckoutFacts): string {
  const ordered = [facts.pageId, facts.kind, facts.postId, facts.amount, facts.currency, facts.sponsorEmail, facts.message, facts.sponsorUid, facts.supporterName, facts.private];
  return crypto.createHash("sha256").update(token).update("\u0000").update(JSON.stringify(ordered)).digest("base64url");
}

/** The open checkout made for this key, if it is still pending and has time left. */
export async function findOpenCheckout(db: Db, reuseKey: string, now = new Date()): Promise<{ sessionId: string; url: string } | null> {
  const [row] = await db
    .select({ id: sponsorSessions.id, url: sponsorSessions.checkoutUrl })
    .from(sponsorSessions)
    .where(
      and(
        eq(sponsorSessions.reuseKey, reuseKey),
        eq(sponsorSessions.status, "pending"),
        gt(sponsorSessions.expiresAt, new Date(now.getTime() + REUSE_MIN_REMAINING_MS)),
      ),
    )
    .limit(1);
  return row?.url ? { sessionId: row.id, url: row.url } : null;
}
