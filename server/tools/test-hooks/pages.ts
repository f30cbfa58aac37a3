import type { AppLoadContext } from "react-router";
import { Router } from "express";
import { z } from "zod";
import { toastSchema } from "#server/platform/http/toast";
import { toastCookie } from "#server/platform/http/toast-cookie";
import { HOOK_PATHS } from "./contract";
import { fetchRequestOf, queryOf, type TestHooksDeps } from "./http";

/** What the page renderer itself needs (the request's cost counter among them); every other service fails when a loader reaches for it. */
const RENDERER_NEEDS: ReadonlySet<PropertyKey> = new Set<keyof AppLoadContext>(["cspNonce", "renderedDocuments", "logger", "charge"]);

/**
 * The load context of a server whose services all broke at once: reading any of
 * them throws, as a dead database or a lost configuration would. The marker lets
 * the specs prove that no word of the error reaches the page.
 */
function brokenServices(context: AppLoadContext): AppLoadContext {
  return new Proxy(context, {
    get(target, key, receiver) {
      // Only the services fail: anything else (a `then` probe, symbols) reads as usual.
      if (RENDERER_NEEDS.has(key) || typeof key !== "string" || !Object.hasOwn(target, key)) return Reflect.get(target, key, receiver);
      throw new Error("Deliberate test failure: SECRET-STACK-MARKER");
    },
  });
}

const toastQuery = toastSchema.extend({ to: z.string().startsWith("/").default("/") });

/**
 * Hooks a browser opens as pages.
 * - `boom`: the product's own pages (React Router over the real build, the route
 *   table unchanged) render this address with every service failing, so the root
 *   loader throws an unexpected error: the error page, its 500 and what it leaves
 *   out are the product's, and no route exists for the test's sake. The address
 *   matches no route (the not-found route, which ships no JavaScript), as before.
 * - `toast`: a toast raised across a redirect, through the same signed flash
 *   cookie real actions set (server/platform/http/toast-cookie.ts is that cookie's one writer).
 */
export function pageHooks(deps: TestHooksDeps): Router {
  const router = Router();
  const failingPages = deps.pages((req, res) => brokenServices(deps.loadContext(req, res)));
  router.get(HOOK_PATHS.boom, failingPages);
  router.get(HOOK_PATHS.toast, async (req, res, next) => {
    try {
      const parsed = toastQuery.safeParse(Object.fromEntries(queryOf(req)));
      if (!parsed.success) return void res.status(400).type("text/plain").send("Bad toast parameters");
      const { to, ...toast } = parsed.data;
      res.set("Set-Cookie", await toastCookie(fetchRequestOf(req), deps.sessionSecret, toast)).redirect(302, to);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
