import { describe, expect, it } from "vitest";
import { action, loader } from "./payment-webhooks";

describe("the webhook address answers other methods with 405", () => {
  it("GET (and so HEAD) gets 405 with Allow: POST, not a server error", async () => {
    const response = loader();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.text()).toBe("Webhook deliveries are POST requests.\n");
  });

  it.each(["PUT", "PATCH", "DELETE"])("%s gets 405 with Allow: POST before anything reads the body", async (method) => {
    const request = new Request("http://app.test/api/payments/webhooks/sandbox", { method, body: "{}" });
    const response = await action({ request, params: { provider: "sandbox" }, context: {} } as unknown as Parameters<typeof action>[0]);
    expect([response.status, response.headers.get("allow")]).toEqual([405, "POST"]);
  });
});
