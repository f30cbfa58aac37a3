import { createHmac, randomBytes } from "node:crypto";

/**
 * What an API key looks like: `sg_live_` (or `sg_test_` under the sandbox), 32 random base62
 * characters, then 6 more that are a CRC-32 of them. The prefix lets secret scanners and people
 * recognise a leaked key; the checksum lets anyone (a scanner, our own API) tell a mistyped or
 * made-up key from a real one without a database lookup.
 */
export type ApiKeyMode = "live" | "test";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^sg_(live|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(bytes: Buffer, length: number): string {
  let out = "";
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  for (const byte of bytes) {
    if (byte >= 248) continue;
    out += ALPHABET[byte % 62];
    if (out.length === length) break;
  }
  return out;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) out += base62(randomBytes(length * 2), length - out.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksumOf(random: string): string {
  let value = crc32(random);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(mode: ApiKeyMode): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `sg_${mode}_${random}${checksumOf(random)}`;
}

/** The key's mode when it has the shape and a checksum that adds up; null for anything else. */
export function parseApiKey(key: string): { mode: ApiKeyMode } | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, mode, random, checksum] = match;
  return checksumOf(random!) === checksum ? { mode: mode as ApiKeyMode } : null;
}

/** What is stored: an HMAC under a server secret, so the table alone never lets anyone in. */
export function hashApiKey(key: string, pepper: string): string {
  return createHmac("sha256", pepper).update(key).digest("base64url");
}

/** How the owner tells keys apart in the list: `sg_live_AbCd…wxyz`. */
export function displayApiKey(key: string): string {
  return `${key.slice(0, 12)}…${key.slice(-4)}`;
}

/** The key-hashing secret, derived from the session secret under its own label. */
export function apiKeyPepper(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("api-keys").digest("base64url");
}
