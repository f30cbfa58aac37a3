import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * SESSION_SECRET when set (required for several processes on PostgreSQL);
 * otherwise a random secret kept in DATA_DIR so that sessions survive restarts
 * of the single embedded-database process.
 */
export function resolveSessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(path.resolve(dataDir), "session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
