import { describe, expect, it } from "vitest";
import { redirectWithToast, takeToast } from "./toast-cookie";

const secret = "a-test-secret-that-is-long-enough-123";

function cookieFrom(setCookie: string | null) {
  return setCookie?.split(";")[0] ?? "";
}

describe("toasts across a redirect", () => {
  it("carries the toast to the next request exactly once", async () => {
    const response = await redirectWithToast(new Request("http://x/a"), secret, "/b", {
      kind: "success",
      message: "Saved!",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/b");
    const cookie = cookieFrom(response.headers.get("Set-Cookie"));

    const first = await takeToast(new Request("http://x/b", { headers: { Cookie: cookie } }), secret);
    expect(first.toast).toEqual({ kind: "success", message: "Saved!" });

    const second = await takeToast(
      new Request("http://x/b", { headers: { Cookie: cookieFrom(first.setCookie) } }),
      secret,
    );
    expect(second.toast).toBeNull();
  });

  it("ignores a cookie signed with another secret", async () => {
    const response = await redirectWithToast(new Request("http://x/"), "another-secret-that-is-long-enough-456", "/", {
      kind: "error",
      message: "Forged",
    });
    const cookie = cookieFrom(response.headers.get("Set-Cookie"));
    const { toast } = await takeToast(new Request("http://x/", { headers: { Cookie: cookie } }), secret);
    expect(toast).toBeNull();
  });
});
