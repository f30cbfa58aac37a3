// `npm run admin -- grant|revoke|list` (admin-entry.ts through tsx) and `node server.js admin …` in
// a release: the only way anyone becomes staff. It opens the database the server uses, under the
// same data-folder lock (so, on the embedded database, not while a server runs). ADR 0049.
import fs from "node:fs";
import { ConfigError, loadConfig } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { DataDirLockedError } from "#server/platform/db/lock";
import { openConfiguredDatabase } from "#server/platform/db/open";
import { providerMigrations } from "#server/providers/payments/choose-provider";
import { COMMAND_LINE } from "#server/platform/audit/audit-log";
import { grantAdmin, listStaff, revokeAdmin } from "#server/domains/staff/roles";

/** Where the command writes: the terminal, or a test's lines. */
export type AdminIo = { out(line: string): void; err(line: string): void };

/** A database to work on and how to let it go; by default the configured one (`.env`, DATABASE_URL or DATA_DIR). */
export type OpenAdminDatabase = () => Promise<{ db: Db; close(): Promise<void> }>;

export const ADMIN_USAGE = [
  "Usage: npm run admin -- <command>   (in a release: node server.js admin <command>)",
  "",
  "  grant EMAIL    make the account with this email staff (it can open /app/admin once it",
  "                 has set up two-factor sign-in; it is asked to on its first visit)",
  "  revoke EMAIL   take staff rights away from the account",
  "  list           list the staff: email, name, and whether two-factor sign-in is on",
].join("\n");

/** How the person typed the command, for the hints it prints: a checkout has npm, a release only node. */
export type AdminInvocation = "npm run admin --" | "node server.js admin";

/** Exit codes: 0 done, 1 the command could not do it (unknown email, no database), 2 wrong usage. */
export async function runAdminCommand(
  argv: string[],
  io: AdminIo = consoleIo,
  open: OpenAdminDatabase = openFromConfig,
  invokedAs: AdminInvocation = "npm run admin --",
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "help" || command === "--help" || command === "-h") {
    io.out(ADMIN_USAGE);
    return 0;
  }
  const wantsEmail = command === "grant" || command === "revoke";
  if (!(wantsEmail || command === "list") || rest.length !== (wantsEmail ? 1 : 0) || (wantsEmail && !rest[0]!.includes("@"))) {
    io.err(command && !["grant", "revoke", "list"].includes(command) ? `Unknown command "${command}".\n\n${ADMIN_USAGE}` : ADMIN_USAGE);
    return 2;
  }
  let opened: Awaited<ReturnType<OpenAdminDatabase>>;
  try {
    opened = await open();
  } catch (error) {
    io.err(`Cannot open the database: ${error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : String(error)}`);
    return 1;
  }
  try {
    if (command === "list") return await list(opened.db, io, invokedAs);
    const email = rest[0]!.trim().toLowerCase();
    const result = command === "grant" ? await grantAdmin(opened.db, email, COMMAND_LINE) : await revokeAdmin(opened.db, email, COMMAND_LINE);
    if (result.kind === "ERROR") {
      io.err(`${result.message} The person signs up first (or check the spelling), then run this again.`);
      return 1;
    }
    if (command === "grant") {
      io.out(result.changed ? `${email} is now staff. On their first visit to /app/admin they set up two-factor sign-in.` : `${email} is already staff: nothing changed.`);
    } else {
      io.out(result.changed ? `${email} is no longer staff.` : `${email} was not staff: nothing changed.`);
    }
    return 0;
  } finally {
    await opened.close();
  }
}

async function list(db: Db, io: AdminIo, invokedAs: AdminInvocation): Promise<number> {
  const staff = await listStaff(db);
  if (staff.length === 0) {
    io.out(`No staff yet. Make the first with: ${invokedAs} grant EMAIL`);
    return 0;
  }
  const rows = [["EMAIL", "NAME", "TWO-FACTOR"], ...staff.map((member) => [member.email, member.name, member.twoFactorEnabled ? "on" : "off"])];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) io.out(`${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`);
  return 0;
}

const consoleIo: AdminIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** `node server.js admin …` in a release: the same command, with hints that name it. */
export function runReleaseAdminCommand(argv: string[]): Promise<number> {
  return runAdminCommand(argv, consoleIo, openFromConfig, "node server.js admin");
}

/** The server's own database settings; migrated first, as `npm run seed` does, so a fresh install works. */
async function openFromConfig() {
  if (process.env.DOTENV !== "off" && fs.existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env);
  const { database, close } = await openConfiguredDatabase(config);
  try {
    await database.migrate(providerMigrations(config));
  } catch (error) {
    await close();
    throw error;
  }
  return { db: database.db, close };
}
