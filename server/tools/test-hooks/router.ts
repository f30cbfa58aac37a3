import { Router } from "express";
import { bioHooks } from "./bio";
import { directoryHooks } from "./directory";
import type { TestHooksDeps } from "./http";
import { identityHooks } from "./identity";
import { memberPageHooks } from "./memberships";
import { membershipsPostsHooks } from "./memberships-posts";
import { memberHooks } from "./members";
import { staffHooks } from "./staff";
import { staffMembershipHooks } from "./staff-memberships";
import { notificationHooks } from "./notifications";
import { pageHooks } from "./pages";
import { paymentHooks } from "./payments";
import { sandboxMembershipHooks } from "./sandbox-memberships";

export type { LoadContextOf, TestHooksDeps } from "./http";

/**
 * The end-to-end suite's hooks, mounted under /__test by server/main/app.ts only
 * when ENABLE_TEST_ROUTES is on, and behind server/platform/http/test-routes.ts (this
 * machine and the run's TEST_ROUTES_SECRET, else a plain 404). They are not
 * part of the product: no route in app/routes.ts, and no product module imports
 * this folder.
 *
 * The rules every hook keeps (server/tools/README.md, "Test hooks: how to add one"):
 * - it calls the domain functions the product calls, so a spec's setup takes the
 *   product's own path; a table is written only by the function the docs name as its
 *   one writer (sendNotification, syncProMembership, the bio host's view counter,
 *   createBioPage, the payment webhooks…);
 * - the few direct writes are test-only setup no domain function makes, each said
 *   and justified in its file (a post dated 2001, directory companies of a test's own,
 *   payments on without a payout account);
 * - it answers JSON typed in contract.ts, which the specs' client
 *   (tests/support/test-hooks-client.ts) compiles against.
 */
export function testHooksRouter(deps: TestHooksDeps): Router {
  const router = Router();
  router.use(pageHooks(deps));
  router.use(identityHooks(deps));
  router.use(staffHooks(deps));
  router.use(staffMembershipHooks(deps));
  router.use(bioHooks(deps));
  router.use(paymentHooks(deps));
  router.use(sandboxMembershipHooks(deps));
  router.use(directoryHooks(deps));
  router.use(notificationHooks(deps));
  router.use(memberPageHooks(deps));
  router.use(membershipsPostsHooks(deps));
  router.use(memberHooks(deps));
  return router;
}
