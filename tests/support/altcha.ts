import { spendNonce } from "../../server/abuse/spent-nonces";
import { createCaptcha, type Captcha } from "../../server/captcha/captcha";
import { createEmptyDatabase } from "./databases";

/** ALTCHA as an app process has it, spending solutions in an empty database of its own (PGlite). */
export async function altchaWithDatabase(hmacKey = "test-hmac-key-0123456789abcdef"): Promise<{ captcha: Captcha; dispose(): Promise<void> }> {
  const database = await createEmptyDatabase("pglite");
  await database.migrate();
  const captcha = createCaptcha({ provider: "altcha", hmacKey, maxNumber: 1000, spendNonce: (nonce, expiresAt) => spendNonce(database.db, nonce, expiresAt) });
  return { captcha, dispose: () => database.dispose() };
}
