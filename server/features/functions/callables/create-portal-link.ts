import { openProPortal } from "#server/features/operations/pro/pro-portal";
import { callableOperation } from "#server/features/functions/operation-door";
import type { CallableFunction } from "#server/features/functions/protocol";
import type { CallableDeps } from "./support";

/**
 * SPEC §7.1 createPortalLink: { returnTo? } → { url }, the openProPortal operation
 * (server/features/operations/pro/pro-portal.ts) through the functions protocol. Someone who
 * never bought has none: aborted, as /app/pro answers it.
 */
export function createPortalLinkFunction(deps: CallableDeps): CallableFunction {
  return callableOperation(openProPortal, deps, {
    shape: "data must be null or an object with an optional returnTo path.",
    answer: ({ url }) => ({ url }),
  });
}
