import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import type { Db } from "#server/platform/db/client";
import { profiles, session, user, type UserType } from "#server/platform/db/schema";
import { parseUserType } from "#server/domains/accounts/profiles";
import { countUnreadNotifications, unreadNotificationsColumn } from "#server/domains/notifications/unread";
import { hasBioPageColumn, onlyBioPageColumn, type HeaderPages } from "#server/domains/bio/header-pages";
import type { Auth } from "./auth";
import { signInPath } from "#server/platform/http/redirects";

export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean; image: string | null };
/** The signed-in person, the header's "Notifications (n)", their pages and profile photo (server/domains/media/), read in the same query. */
export type SessionAccount = {
  user: SessionUser;
  unreadNotifications: number;
  pages: HeaderPages;
  photoId: string | null;
  /** Creator or sponsor as chosen at sign-up or on the home's choice (profiles.user_type), null when never chosen. */
  userType: UserType | null;
};

/**
 * One HTTP request's session lookups, by method and cookie: React Router hands each loader a
 * Request object of its own, so the object cannot say "the same request"; the loaders that run
 * after an action ask with GET and so read the session again, as the action may have changed it.
 * Made per request with the load context (server/main/app.ts), so nothing outlives the request.
 */
export type SessionLookups = Map<string, Promise<SessionAccount | null>>;

/** What the lookup needs: the load context has it all, other callers pass auth and db. */
type SessionContext = { auth: Auth; db: Db; sessionLookups?: SessionLookups };

/**
 * Who sent the request, read from the database on every request (never a cached cookie or a
 * per-process memory: a disabled account or an ended session is out on its next request).
 * The root and route loaders of one request share the lookup.
 */
export function getSessionAccount(request: Request, context: SessionContext): Promise<SessionAccount | null> {
  const lookups = context.sessionLookups;
  const key = `${request.method} ${request.headers.get("cookie") ?? ""}`;
  let lookup = lookups?.get(key);
  if (!lookup) {
    lookup = lookUpSession(request.headers, context);
    lookups?.set(key, lookup);
  }
  return lookup;
}

export async function getSessionUser(request: Request, context: SessionContext): Promise<SessionUser | null> {
  return (await getSessionAccount(request, context))?.user ?? null;
}

/** What better-auth itself uses to read a session cookie (its cookie names, secret and ages). */
type SessionRules = { cookieName: string; dontRememberCookieName: string; secret: string; expiresInMs: number; updateAgeMs: number };

// better-auth builds its context once per auth object and keeps the promise: reading it again is free.
async function sessionRules(auth: Auth): Promise<SessionRules> {
  const ctx = await auth.$context;
  return {
    cookieName: ctx.authCookies.sessionToken.name,
    dontRememberCookieName: ctx.authCookies.dontRememberToken.name,
    secret: ctx.secret,
    expiresInMs: ctx.sessionConfig.expiresIn * 1000,
    updateAgeMs: ctx.sessionConfig.updateAge * 1000,
  };
}

/**
 * The common case in one query (session, account and unread count together): a signed token
 * whose session row exists, has not expired and is not yet due for better-auth's daily
 * extension. Everything else — an expired session (better-auth deletes it) or one due for
 * extension (better-auth moves its expiry) — goes through better-auth's own getSession, as
 * every request did before.
 */
async function lookUpSession(headers: Headers, context: SessionContext): Promise<SessionAccount | null> {
  const cookieHeader = headers.get("cookie");
  if (!cookieHeader) return null;
  const rules = await sessionRules(context.auth);
  const token = signedCookieValue(cookieHeader, rules.cookieName, rules.secret);
  if (token === null) return null;
  const [row] = await context.db
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerified,
      image: user.image,
      disabled: user.disabled,
      expiresAt: session.expiresAt,
      unreadNotifications: unreadNotificationsColumn(user.id),
      onlyPageId: onlyBioPageColumn(user.id),
      hasPage: hasBioPageColumn(user.id),
      photoId: profiles.photoId,
      userType: profiles.userType,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(profiles, eq(profiles.uid, user.id))
    .where(eq(session.token, token));
  if (!row || row.disabled) return null;
  const now = Date.now();
  const expiresAt = row.expiresAt.getTime();
  // better-auth never extends a session signed in without "remember me" (its signed dont_remember cookie).
  const extendable = !signedCookieValue(cookieHeader, rules.dontRememberCookieName, rules.secret);
  const dueForExtension = extendable && expiresAt - rules.expiresInMs + rules.updateAgeMs <= now;
  if (expiresAt <= now || dueForExtension) return lookUpThroughBetterAuth(headers, context);
  return {
    user: { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerified, image: row.image ?? null },
    unreadNotifications: Number(row.unreadNotifications),
    pages: { onlyPageId: row.onlyPageId ?? null, hasPage: Boolean(row.hasPage) },
    photoId: row.photoId ?? null,
    userType: parseUserType(row.userType),
  };
}

async function lookUpThroughBetterAuth(headers: Headers, context: SessionContext): Promise<SessionAccount | null> {
  const result = await context.auth.api.getSession({ headers, query: { disableCookieCache: true } });
  if (!result || result.user.disabled) return null;
  const { id, email, name, emailVerified, image } = result.user;
  return {
    user: { id, email, name, emailVerified, image: image ?? null },
    unreadNotifications: await countUnreadNotifications(context.db, id),
    pages: await headerPagesOf(context.db, id),
    ...(await profileBitsOf(context.db, id)),
  };
}

async function profileBitsOf(db: Db, uid: string): Promise<Pick<SessionAccount, "photoId" | "userType">> {
  const [row] = await db.select({ photoId: profiles.photoId, userType: profiles.userType }).from(profiles).where(eq(profiles.uid, uid));
  return { photoId: row?.photoId ?? null, userType: parseUserType(row?.userType) };
}

async function headerPagesOf(db: Db, uid: string): Promise<HeaderPages> {
  const [row] = await db.select({ onlyPageId: onlyBioPageColumn(user.id), hasPage: hasBioPageColumn(user.id) }).from(user).where(eq(user.id, uid));
  return { onlyPageId: row?.onlyPageId ?? null, hasPage: Boolean(row?.hasPage) };
}

/** The value of a cookie better-auth signed, or null when it is absent or its signature is not ours. */
function signedCookieValue(header: string, name: string, secret: string): string | null {
  const signed = readCookie(header, name);
  return signed === null ? null : verifiedValue(signed, secret);
}

/** The first cookie of that name, decoded as better-call decodes it (surrounding quotes dropped). */
export function readCookie(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const equals = part.indexOf("=");
    if (equals === -1 || part.slice(0, equals).trim() !== name) continue;
    let value = part.slice(equals + 1).trim();
    if (value.charCodeAt(0) === 34) value = value.slice(1, -1);
    if (!value.includes("%")) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

/**
 * The value of a cookie better-auth signed (`<value>.<base64 HMAC-SHA256 of the value>`), or
 * null when the signature is not ours: the check better-call's getSignedCookie makes.
 */
export function verifiedValue(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const value = signed.slice(0, dot);
  const expected = Buffer.from(createHmac("sha256", secret).update(value).digest("base64"));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Signed in, or off to /signin and back here afterwards. */
export async function requireUser(request: Request, context: SessionContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (!user) throw redirect(signInPath(pathOf(request)));
  return user;
}

/** Signed in with a verified email; unverified people are sent to /app/verify. */
export async function requireVerifiedUser(request: Request, context: SessionContext): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (!user.emailVerified) throw redirect("/app/verify");
  return user;
}

/** Copies better-auth's Set-Cookie headers onto a response of ours. */
export function cookieHeaders(from: Headers | undefined | null, into = new Headers()): Headers {
  for (const cookie of from?.getSetCookie() ?? []) into.append("Set-Cookie", cookie);
  return into;
}
