import type { AppLoadContext } from "react-router";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { getSessionUser, type SessionUser } from "#server/domains/auth/session";
import type { NotificationStreams } from "#server/domains/notifications/stream";

/** How a request's load context is made (server/main/app.ts). */
export type LoadContextOf = (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;

/** What the hooks work with: the services every route gets, and the pages' own request handler. */
export type TestHooksDeps = Pick<AppLoadContext, "config" | "db" | "logger" | "auth" | "mailer" | "payments" | "sandbox" | "viewCounter" | "sessionSecret"> & {
  notificationStreams?: NotificationStreams | null;
  /** React Router's handler over the product's own build, with the load context given. */
  pages: (getLoadContext: LoadContextOf) => RequestHandler;
  /** The load context the product's pages get for a request. */
  loadContext: LoadContextOf;
};

/** A refusal a hook answers as plain text with its status (a spec's mistake, not a server bug). */
export class HookRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request's query string, read as the old route hooks read it (last value wins, no arrays). */
export function queryOf(req: ExpressRequest): URLSearchParams {
  return new URL(req.originalUrl, "http://hook.invalid").searchParams;
}

/** The request as the product's own code reads one (cookies and all), for session lookups and cookies. */
export function fetchRequestOf(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`), { headers });
}

/** The signed-in person (the pages' own lookup: a disabled account is signed out), or 401. */
export async function signedInUser(req: ExpressRequest, deps: Pick<TestHooksDeps, "auth" | "db">, options: { verified?: boolean } = {}): Promise<SessionUser> {
  const user = await getSessionUser(fetchRequestOf(req), deps);
  if (!user) throw new HookRefusal(401, "Sign in first");
  if (options.verified && !user.emailVerified) throw new HookRefusal(403, "Verify the email address first");
  return user;
}

/**
 * One hook: its answer is sent as JSON (never cached); a HookRefusal as text with
 * its status; anything else goes on to Express's error handler, a 500 as for any route.
 */
export function hook(handler: (req: ExpressRequest, res: ExpressResponse) => Promise<unknown>): RequestHandler {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const answer = await handler(req, res);
      if (!res.headersSent) res.set("Cache-Control", "no-store").json(answer);
    } catch (error) {
      if (error instanceof HookRefusal) res.status(error.status).type("text/plain").send(error.message);
      else next(error);
    }
  };
}

/** A whole number from the query, clamped to [min, max]; `fallback` when absent or not a number. */
export function boundedInt(value: string | null, fallback: number, min: number, max: number): number {
  const parsed = Math.floor(Number(value ?? fallback));
  return Math.min(max, Math.max(min, Number.isFinite(parsed) ? parsed : fallback));
}
