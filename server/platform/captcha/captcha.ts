import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { z } from "zod";

export type CaptchaProvider = "altcha" | "recaptcha" | "turnstile";

/**
 * Where a hosted captcha's widget loads its scripts and frames from, for the
 * CSP (server/platform/http/security.ts). ALTCHA is served by this site.
 */
export const CAPTCHA_WIDGET_SOURCES: Record<CaptchaProvider, { scripts: string[]; frames: string[] }> = {
  altcha: { scripts: [], frames: [] },
  recaptcha: {
    scripts: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
    frames: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
  },
  turnstile: { scripts: ["https://challenges.cloudflare.com"], frames: ["https://challenges.cloudflare.com"] },
};

export type Captcha = {
  provider: CaptchaProvider;
  /** Public key for reCAPTCHA/Turnstile, null for ALTCHA. */
  siteKey: string | null;
  /** ALTCHA challenge JSON; throws for other providers. */
  createChallenge(): Promise<unknown>;
  /** Never throws on bad input or a failing provider: false. (ALTCHA throws if its database does.) */
  verify(response: string, remoteIp?: string): Promise<boolean>;
};

export type CaptchaOptions = {
  provider: CaptchaProvider;
  /** Signs ALTCHA challenges. */
  hmacKey: string;
  /** ALTCHA work: the solver tries up to this many hashes (half on average). */
  maxNumber: number;
  siteKey?: string;
  secretKey?: string;
  fetch?: typeof fetch;
  /** Overrides the provider's siteverify endpoint (tests, self-hosted proxies). */
  verifyUrl?: string;
  /** Hears why a reCAPTCHA/Turnstile check could not be made (network, provider down), to log it. */
  onError?: (error: unknown) => void;
  /**
   * ALTCHA: records a solved challenge's nonce, true the first time only
   * (server/platform/abuse/spent-nonces.ts keeps them in the database, for every process).
   */
  spendNonce?: (nonce: string, expiresAt: Date) => Promise<boolean>;
};

export const ALTCHA_CHALLENGE_LIFETIME_MS = 10 * 60_000;
/** Longer answers are not from a real widget; rejecting them early bounds the work. */
const MAX_RESPONSE_LENGTH = 10_000;
const SITEVERIFY_TIMEOUT_MS = 10_000;
const MISCONFIGURED = new Set<unknown>(["missing-input-secret", "invalid-input-secret"]);

const SITEVERIFY_URLS = {
  recaptcha: "https://www.google.com/recaptcha/api/siteverify",
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
} as const;

export function createCaptcha(options: CaptchaOptions): Captcha {
  if (options.provider === "altcha") return altchaCaptcha(options);
  const { provider, siteKey, secretKey } = options;
  if (!siteKey || !secretKey) throw new Error(`${provider} needs both a site key and a secret key`);
  return {
    provider,
    siteKey,
    createChallenge: () => Promise.reject(new Error(`${provider} issues its own challenges; only ALTCHA has a challenge endpoint`)),
    verify: (response, remoteIp) =>
      siteverify({ ...options, secretKey, verifyUrl: options.verifyUrl ?? SITEVERIFY_URLS[provider] }, response, remoteIp),
  };
}

/**
 * ALTCHA v2 proof of work in deterministic mode: the server picks a counter from 0 to maxNumber and
 * signs the first half of SHA-256(salt, nonce, counter); the browser must find that counter.
 * SHA-256 with cost 1 keeps maxNumber meaning what it meant in ALTCHA v1 (hashes to try).
 */
function altchaCaptcha({ hmacKey, maxNumber, spendNonce }: CaptchaOptions): Captcha {
  if (!hmacKey) throw new Error("ALTCHA needs an HMAC key");
  if (!spendNonce) throw new Error("ALTCHA needs spendNonce, so that a solution passes once");
  return {
    provider: "altcha",
    siteKey: null,
    createChallenge: () =>
      createChallenge({
        algorithm: "SHA-256",
        cost: 1,
        counter: randomInt(maxNumber, 0),
        deriveKey,
        expiresAt: new Date(Date.now() + ALTCHA_CHALLENGE_LIFETIME_MS),
        hmacSignatureSecret: hmacKey,
      }),
    async verify(response) {
      const payload = decodeAltchaPayload(response);
      if (!payload) return false;
      let verified: boolean;
      try {
        verified = (await verifySolution({ ...payload, deriveKey, hmacSignatureSecret: hmacKey })).verified;
      } catch {
        return false; // a malformed solution
      }
      // Spent only once verified, so forged payloads cannot fill the table. A database
      // failure is not the person's fault: it propagates instead of reading as "not human".
      const { nonce, expiresAt } = payload.challenge.parameters;
      return verified && (await spendNonce(nonce, new Date(expiresAt * 1000)));
    },
  };
}

/** What the altcha 3.x widget posts for a v2 challenge: base64 of this JSON. */
const altchaPayloadShape = z.object({
  challenge: z.object({
    // expiresAt is required: every challenge we sign has one, and without it nothing would expire.
    parameters: z.looseObject({ nonce: z.string(), expiresAt: z.number() }),
    signature: z.string(),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string() }),
});

type AltchaPayload = { challenge: Challenge & { parameters: { expiresAt: number } }; solution: Solution };

function decodeAltchaPayload(response: string): AltchaPayload | null {
  if (!response || response.length > MAX_RESPONSE_LENGTH) return null;
  try {
    const json: unknown = JSON.parse(Buffer.from(response, "base64").toString("utf8"));
    // The original object, not zod's copy: the signature covers every parameter as sent.
    return altchaPayloadShape.safeParse(json).success ? (json as AltchaPayload) : null;
  } catch {
    return null;
  }
}

/** reCAPTCHA and Turnstile share the siteverify protocol: a form POST answered with { success }. */
async function siteverify(
  options: { secretKey: string; verifyUrl: string; fetch?: typeof fetch; onError?: (error: unknown) => void },
  response: string,
  remoteIp: string | undefined,
): Promise<boolean> {
  if (!response || response.length > MAX_RESPONSE_LENGTH) return false;
  const form = new URLSearchParams({ secret: options.secretKey, response });
  if (remoteIp) form.set("remoteip", remoteIp);
  try {
    const reply = await (options.fetch ?? fetch)(options.verifyUrl, {
      method: "POST",
      body: form,
      signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
    });
    if (!reply.ok) throw new Error(`captcha siteverify answered HTTP ${reply.status}`);
    const json = (await reply.json()) as { success?: unknown; "error-codes"?: unknown } | null;
    if (json?.success === true) return true;
    // A wrong secret fails every sign-up: worth a log line, unlike a person's bad token.
    const codes = Array.isArray(json?.["error-codes"]) ? json["error-codes"] : [];
    if (codes.some((code) => MISCONFIGURED.has(code))) throw new Error(`captcha siteverify: ${codes.join(", ")}`);
    return false;
  } catch (error) {
    options.onError?.(error);
    return false;
  }
}
