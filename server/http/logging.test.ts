import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logging";

describe("the logger's second net", () => {
  it("replaces secret-named fields and credential headers passed whole, at the top and one object down", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger("info", undefined, sink);
    logger.info(
      {
        password: "hunter2-password",
        form: { email: "a@example.com", cardNumber: "4242424242424242", cvc: "cvc-739", token: "reset-token-abc" },
        req: { headers: { cookie: "session=abc.def", authorization: "Bearer metrics-token", host: "grid.example", "set-cookie": ["s=1"] } },
        headers: { "x-test-routes-secret": "test-hook-key-1", "sandbox-signature": "t=1,v1=ff" },
      },
      "a careless line",
    );
    const line = JSON.parse(lines.join("")) as Record<string, unknown>;
    expect(JSON.stringify(line)).not.toMatch(/hunter2|4242|cvc-739|reset-token|abc\.def|metrics-token|test-hook-key-1|v1=ff|s=1/);
    // What is not secret stays, so the line still says what happened.
    expect(line).toMatchObject({ msg: "a careless line", form: { email: "a@example.com", cardNumber: "[redacted]" }, req: { headers: { host: "grid.example", cookie: "[redacted]" } } });
  });
});
