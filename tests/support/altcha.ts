import { spendNonce } from "#server/platform/abuse/spent-nonces";
import { createCaptcha, type Captcha } from "#server/platform/captcha/captcha";
import type { Db } from "#server/platform/db/client";

/** The HMAC key the tests' ALTCHA signs challenges with. */
export const TEST_HMAC_KEY = "test-hmac-key-0123456789abcdef";

/** ALTCHA as one app process has it, spending solutions in `db` (shared by every process). */
export function altchaOn(db: Db, hmacKey = TEST_HMAC_KEY): Captcha {
  return createCaptcha({ provider: "altcha", hmacKey, maxNumber: 1000, spendNonce: (nonce, expiresAt) => spendNonce(db, nonce, expiresAt) });
}
