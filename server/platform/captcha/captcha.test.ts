import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterEach, describe, expect, it, vi } from "vitest";
import { altchaOn, TEST_HMAC_KEY as HMAC_KEY } from "#tests/support/altcha";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { ALTCHA_CHALLENGE_LIFETIME_MS, createCaptcha } from "./captcha";

/** What the altcha 3.x widget posts after solving a v2 challenge. */
async function solveAsWidget(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64");
}

afterEach(() => vi.useRealTimers());

describe.each(ENGINES)("ALTCHA on %s", (engine) => {
  const database = migratedDatabase(engine);

  /** One app process's captcha; every process shares the database. */
  const altcha = (hmacKey?: string) => altchaOn(database.db, hmacKey);

  it("needs somewhere to record spent solutions", () => {
    expect(() => createCaptcha({ provider: "altcha", hmacKey: HMAC_KEY, maxNumber: 1000 })).toThrow(/spendNonce/);
  });

  it("issues signed SHA-256 challenges that expire after 10 minutes", async () => {
    const captcha = altcha();
    expect(captcha).toMatchObject({ provider: "altcha", siteKey: null });
    const challenge = (await captcha.createChallenge()) as Challenge;
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: "SHA-256", cost: 1 });
    const lifetime = challenge.parameters.expiresAt! * 1000 - Date.now();
    expect(lifetime).toBeGreaterThan(ALTCHA_CHALLENGE_LIFETIME_MS - 5_000);
    expect(lifetime).toBeLessThanOrEqual(ALTCHA_CHALLENGE_LIFETIME_MS);
  });

  it("keeps the work below maxNumber", async () => {
    const captcha = altcha();
    for (let i = 0; i < 5; i++) {
      const solution = await solveChallenge({ challenge: (await captcha.createChallenge()) as Challenge, deriveKey });
      expect(solution!.counter).toBeLessThanOrEqual(1000);
    }
  });

  it("accepts a solved challenge once", async () => {
    const captcha = altcha();
    const response = await solveAsWidget((await captcha.createChallenge()) as Challenge);
    expect(await captcha.verify(response)).toBe(true);
    expect(await captcha.verify(response)).toBe(false);
  });

  it("accepts a solution once across processes, even when they check it at the same time", async () => {
    const [first, second] = [altcha(), altcha()];
    const response = await solveAsWidget((await first.createChallenge()) as Challenge);
    const verdicts = await Promise.all([first.verify(response), second.verify(response), first.verify(response), second.verify(response)]);
    expect(verdicts.filter(Boolean)).toHaveLength(1);
    expect(await altcha().verify(response)).toBe(false);
  });

  it("refuses a wrong solution, a tampered challenge and another key's challenge", async () => {
    const captcha = altcha();
    const challenge = (await captcha.createChallenge()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const wrongCounter = { challenge, solution: { ...solution!, counter: solution!.counter + 1 } };
    expect(await captcha.verify(encode(wrongCounter))).toBe(false);
    const easier = { ...challenge, parameters: { ...challenge.parameters, keyPrefix: "00" } };
    expect(await captcha.verify(encode({ challenge: easier, solution }))).toBe(false);

    const other = altcha("another-key-0123456789abcdef");
    expect(await captcha.verify(await solveAsWidget((await other.createChallenge()) as Challenge))).toBe(false);
    // The untouched solution still passes: the refusals above did not spend it.
    expect(await captcha.verify(encode({ challenge, solution }))).toBe(true);
  });

  it("refuses a challenge solved after it expired", async () => {
    const captcha = altcha();
    const response = await solveAsWidget((await captcha.createChallenge()) as Challenge);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + ALTCHA_CHALLENGE_LIFETIME_MS + 1_000);
    expect(await captcha.verify(response)).toBe(false);
  });

  it("answers false, never throws, for malformed responses", async () => {
    const captcha = altcha();
    const challenge = (await captcha.createChallenge()) as Challenge;
    const malformed = [
      "",
      "not base64 !!!",
      Buffer.from("not json").toString("base64"),
      encode(null),
      encode({ challenge: null, solution: null, test: true }), // the widget's test mode
      encode({ algorithm: "SHA-256", challenge: "abc", number: 1, salt: "x", signature: "y" }), // v1 payload
      encode({ challenge, solution: { counter: -1, derivedKey: "zz" } }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, nonce: "not hex" } }, solution: { counter: 1, derivedKey: "00" } }),
      "A".repeat(20_000),
    ];
    for (const response of malformed) expect(await captcha.verify(response)).toBe(false);
  });
});

describe.each([
  ["recaptcha", "https://www.google.com/recaptcha/api/siteverify"],
  ["turnstile", "https://challenges.cloudflare.com/turnstile/v0/siteverify"],
] as const)("%s", (provider, siteverifyUrl) => {
  function withFetch(reply: () => Promise<Response>, onError = vi.fn()) {
    const fetch = vi.fn<typeof globalThis.fetch>(reply);
    const captcha = createCaptcha({ provider, hmacKey: HMAC_KEY, maxNumber: 1000, siteKey: "site-key", secretKey: "secret-key", fetch, onError });
    return { captcha, fetch, onError };
  }
  const json = (body: unknown, status = 200) => async () => Response.json(body, { status });

  it("posts secret, response and remoteip to siteverify and trusts success: true", async () => {
    const { captcha, fetch } = withFetch(json({ success: true }));
    expect(captcha).toMatchObject({ provider, siteKey: "site-key" });
    expect(await captcha.verify("token-123", "203.0.113.7")).toBe(true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(siteverifyUrl);
    expect(init?.method).toBe("POST");
    const form = init?.body as URLSearchParams;
    expect(Object.fromEntries(form)).toEqual({ secret: "secret-key", response: "token-123", remoteip: "203.0.113.7" });
  });

  it("leaves remoteip out when the address is unknown", async () => {
    const { captcha, fetch } = withFetch(json({ success: true }));
    await captcha.verify("token-123");
    expect([...(fetch.mock.calls[0]![1]?.body as URLSearchParams).keys()]).toEqual(["secret", "response"]);
  });

  it("refuses anything but success: true", async () => {
    for (const body of [{ success: false, "error-codes": ["invalid-input-response"] }, { success: "true" }, {}, null]) {
      const { captcha, onError } = withFetch(json(body));
      expect(await captcha.verify("token-123")).toBe(false);
      expect(onError).not.toHaveBeenCalled();
    }
  });

  it("does not call the provider for an empty or oversized token", async () => {
    const { captcha, fetch } = withFetch(json({ success: true }));
    expect(await captcha.verify("")).toBe(false);
    expect(await captcha.verify("x".repeat(10_001))).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("answers false and reports network failures, provider errors and a wrong secret", async () => {
    const failures = [
      () => Promise.reject(new TypeError("fetch failed")),
      json({ error: "down" }, 503),
      async () => new Response("<html>", { headers: { "content-type": "text/html" } }),
      json({ success: false, "error-codes": ["invalid-input-secret"] }),
    ];
    for (const failure of failures) {
      const { captcha, onError } = withFetch(failure);
      expect(await captcha.verify("token-123")).toBe(false);
      expect(onError).toHaveBeenCalledOnce();
    }
  });

  it("uses verifyUrl when given and has no ALTCHA challenge", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(json({ success: true }));
    const captcha = createCaptcha({ provider, hmacKey: HMAC_KEY, maxNumber: 1000, siteKey: "s", secretKey: "k", fetch, verifyUrl: "http://127.0.0.1:9/verify" });
    await captcha.verify("token");
    expect(fetch.mock.calls[0]![0]).toBe("http://127.0.0.1:9/verify");
    await expect(captcha.createChallenge()).rejects.toThrow(/only ALTCHA/);
  });

  it("needs both keys", () => {
    expect(() => createCaptcha({ provider, hmacKey: HMAC_KEY, maxNumber: 1000, siteKey: "s" })).toThrow(/secret key/);
  });
});
