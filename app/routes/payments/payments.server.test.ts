import type { AppLoadContext } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { refusal, success } from "#server/platform/errors";
import { answerConnectResult } from "./payments.server";

const user = { id: "u_connect", email: "creator@c.example" };
const request = new Request("http://app.test/app/payments/setup", { method: "POST" });

function contextWithLog() {
  const error = vi.fn();
  const context = { logger: { error }, sessionSecret: "s".repeat(32) } as unknown as AppLoadContext;
  return { context, error };
}

/** What the route stops with: a thrown value, as React Router receives it. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (thrown) {
    return thrown;
  }
  throw new Error("expected the route to stop");
}

describe("payments setup: a connect that fails is answered in place with its true status (ADR 0014)", () => {
  it.each([
    ["the provider did not answer", refusal("unavailable", "PROVIDER_UNREACHABLE", "The payment provider could not be reached."), 503],
    ["the account row was not saved", refusal("internal", "NOT_SAVED", "The payout account could not be saved."), 500],
  ] as const)("%s: the error page with its code's status at the same address, not a redirect to /500, and the failure logged", (_case, result, status) => {
    const { context, error } = contextWithLog();
    const thrown = thrownBy(() => answerConnectResult(request, context, user, result, "connected account failed"));
    expect(thrown).not.toBeInstanceOf(Response);
    expect(thrown).toMatchObject({ type: "DataWithResponseInit", init: { status } });
    expect(error).toHaveBeenCalledWith({ uid: user.id, reason: result.message }, "payments setup: connected account failed");
  });

  it("someone else's link: 403 in place, and nothing logged as a failure of ours", () => {
    const { context, error } = contextWithLog();
    const notYours = refusal("permission-denied", "NOT_YOUR_LINK", "This payments setup link is not for your account.");
    const thrown = thrownBy(() => answerConnectResult(request, context, user, notYours, "onboarding refresh failed"));
    const forbidden = 403;
    expect(thrown).toMatchObject({ type: "DataWithResponseInit", init: { status: forbidden } });
    expect(error).not.toHaveBeenCalled();
  });

  it("a new or unfinished account still goes on to the provider's onboarding page", () => {
    const { context } = contextWithLog();
    const thrown = thrownBy(() => answerConnectResult(request, context, user, success({ outcome: "CREATE_NEW" as const, url: "https://connect.example/onboard" }), "x"));
    expect(thrown).toBeInstanceOf(Response);
    expect([(thrown as Response).status, (thrown as Response).headers.get("location")]).toEqual([302, "https://connect.example/onboard"]);
  });
});
