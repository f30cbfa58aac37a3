import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";

/**
 * An authenticator app for tests. The server accepts a code from the previous, the current or the
 * next 30-second step, and each step once per account; so, as a person waits for the app's next
 * code, this hands out a code from a step not yet used for the secret in this process, and waits
 * when that step is not yet accepted.
 */
const PERIOD_MS = 30_000;
const lastStepBySecret = new Map<string, number>();

const stepNow = () => Math.floor(Date.now() / PERIOD_MS);
const otpFor = (secret: string) => createOTP(base32.decode(secret));

/** A code the server takes now, from a step this process has not used for `secret` yet. */
export async function authenticatorCode(secret: string): Promise<string> {
  for (;;) {
    const now = stepNow();
    const step = Math.max(now, (lastStepBySecret.get(secret) ?? now - 1) + 1);
    if (step <= now + 1) {
      lastStepBySecret.set(secret, step);
      return otpFor(secret).hotp(step);
    }
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * PERIOD_MS - Date.now() + 50));
  }
}

/** Six digits that are no code of `secret` the server would take now. */
export async function wrongAuthenticatorCode(secret: string): Promise<string> {
  const now = stepNow();
  const accepted = new Set(await Promise.all([now - 1, now, now + 1, now + 2].map((step) => otpFor(secret).hotp(step))));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!accepted.has(candidate)) return candidate;
  }
}

/** The code of the step just before the newest one used: what an overheard, replayed code looks like. */
export function replayedCode(secret: string): Promise<string> {
  const last = lastStepBySecret.get(secret);
  if (last === undefined) throw new Error("No code of this secret has been used yet");
  return otpFor(secret).hotp(last);
}
