import crypto from "node:crypto";

/** Stripe-like ids that say "sandbox": acct_sbx_…, cs_sbx_…, pi_sbx_…, ch_sbx_…, re_sbx_…, tr_sbx_…, du_sbx_…, evt_sbx_…, in_sbx_…. */
export type SandboxIdPrefix = "acct" | "cs" | "pi" | "ch" | "re" | "tr" | "du" | "evt" | "cus" | "price" | "sub" | "in";

// 24 base62 characters (~143 bits): a checkout's id is its address, so it must not be guessable.
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LENGTH = 24;

export function sandboxId(prefix: SandboxIdPrefix): string {
  let out = "";
  while (out.length < LENGTH) {
    for (const byte of crypto.randomBytes(LENGTH * 2)) {
      // 248 = 4 × 62: bytes above it are skipped so every character is equally likely.
      if (byte < 248 && out.length < LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return `${prefix}_sbx_${out}`;
}

/** Whether a string has the shape of a sandbox id of that kind (routes check before any query). */
export function isSandboxId(prefix: SandboxIdPrefix, value: string | undefined | null): value is string {
  return typeof value === "string" && new RegExp(`^${prefix}_sbx_[0-9A-Za-z]{${LENGTH}}$`).test(value);
}
