import express, { Router } from "express";
import { SandboxRequestError } from "#server/providers/payments/sandbox/errors";
import { isSandboxId } from "#server/providers/payments/sandbox/ids";
import { sandboxFor } from "#server/providers/payments/sandbox/runtime";
import type { SandboxMembershipsAdvanceAnswer } from "./contract";
import { HOOK_PATHS } from "./contract";
import { hook, HookRefusal, type TestHooksDeps } from "./http";

/**
 * The sandbox's membership test clock, as the card page's and the payouts dashboard's buttons move
 * it: POST (JSON or a form) with `subscriptionId` moves that subscription on by one period, without
 * it every running membership subscription by one period (renewed, failed with the 0341 card, or
 * ended). Answers what happened; the events it stored are kicked to our webhook.
 */
export function sandboxMembershipHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.post(
    HOOK_PATHS.sandboxMembershipsAdvance,
    express.json(),
    express.urlencoded({ extended: false }),
    hook(async (req): Promise<SandboxMembershipsAdvanceAnswer> => {
      if (deps.payments.name !== "sandbox") throw new HookRefusal(409, "Only with the sandbox provider");
      const body = (req.body ?? {}) as Record<string, unknown>;
      const asked = typeof body.subscriptionId === "string" && body.subscriptionId !== "" ? body.subscriptionId : undefined;
      if (asked !== undefined && !isSandboxId("sub", asked)) throw new HookRefusal(400, "subscriptionId is a sandbox subscription id (sub_sbx_…)");
      try {
        return await sandboxFor(deps).advanceMemberships({ subscriptionId: asked });
      } catch (error) {
        if (error instanceof SandboxRequestError) throw new HookRefusal(404, error.message);
        throw error;
      }
    }),
  );
  return router;
}
