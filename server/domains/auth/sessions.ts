import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { session, user } from "#server/platform/db/schema";
import { SESSION_COOKIE_PREFIX } from "./auth";

/**
 * Disables an account as staff would (SPEC §4): no new session (see the
 * session hook in auth.ts) and every existing one ends now, not at expiry.
 * Its public side stops with it (server/domains/accounts/active-owner.ts), so the
 * pages kept in memory (guest pages, bio host) are read again.
 * Returns whether an account had that email.
 */
export async function disableAccount(db: Db, email: string): Promise<boolean> {
  const [row] = await db.update(user).set({ disabled: true, updatedAt: new Date() }).where(eq(user.email, email.toLowerCase())).returning({ id: user.id });
  if (!row) return false;
  await db.delete(session).where(eq(session.userId, row.id));
  return true;
}

/** Enables a disabled account again: it can sign in, and its pages, posts and profile card are back. */
export async function enableAccount(db: Db, email: string): Promise<boolean> {
  const [row] = await db.update(user).set({ disabled: false, updatedAt: new Date() }).where(eq(user.email, email.toLowerCase())).returning({ id: user.id });
  if (!row) return false;
  return true;
}

/** Ends every session of the account except the one holding `keepToken`. */
export async function endOtherSessions(db: Db, keepToken: string): Promise<void> {
  const [kept] = await db.select({ userId: session.userId }).from(session).where(eq(session.token, keepToken));
  if (!kept) return;
  await db.delete(session).where(and(eq(session.userId, kept.userId), ne(session.token, keepToken)));
}

/**
 * The session token better-auth just set (`sg.session_token=<token>.<signature>`,
 * with the `__Secure-` prefix over HTTPS), or null when the headers set none.
 */
export function sessionTokenSetBy(headers: Headers): string | null {
  const name = `${SESSION_COOKIE_PREFIX}.session_token=`;
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0]!.replace(/^__Secure-/, "");
    if (!pair.startsWith(name)) continue;
    const value = decodeURIComponent(pair.slice(name.length));
    const token = value.split(".")[0];
    if (token) return token;
  }
  return null;
}
