import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, user } from "#server/platform/db/schema";
import { acquireDataDirLock } from "#server/platform/db/lock";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { runAdminCommand, type AdminIo } from "./admin-cli";

function lines(): AdminIo & { out_: string[]; err_: string[] } {
  const out_: string[] = [];
  const err_: string[] = [];
  return { out_, err_, out: (line) => void out_.push(line), err: (line) => void err_.push(line) };
}

describe.each(ENGINES)("npm run admin on %s", (engine) => {
  const database = migratedDatabase(engine);
  let closed = 0;
  const open = async () => ({ db: database.db, close: async () => void closed++ });

  async function person(email: string, name: string) {
    await database.db.insert(user).values({ id: `u-${email}`, name, email, emailVerified: true });
  }

  it("grant makes the account staff, with an audit row by the command line; again changes nothing", async () => {
    await person("ada@example.com", "Ada Admin");
    const io = lines();
    expect(await runAdminCommand(["grant", "Ada@Example.com"], io, open)).toBe(0);
    expect(io.out_.join("\n")).toMatch(/^ada@example\.com is now staff\./);
    const [row] = await database.db.select({ role: user.role }).from(user).where(eq(user.email, "ada@example.com"));
    expect(row?.role).toBe("admin");
    const audits = await database.db.select().from(auditLog).where(eq(auditLog.subjectId, "u-ada@example.com"));
    expect(audits.map((a) => [a.action, a.actorId, a.actorLabel])).toEqual([["staff.grant", null, "command line"]]);
    const again = lines();
    expect(await runAdminCommand(["grant", "ada@example.com"], again, open)).toBe(0);
    expect(again.out_).toEqual(["ada@example.com is already staff: nothing changed."]);
  });

  it("list shows email, name and whether two-factor sign-in is on", async () => {
    await person("bo@example.com", "Bo Staff");
    await runAdminCommand(["grant", "bo@example.com"], lines(), open);
    await database.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.email, "bo@example.com"));
    const io = lines();
    expect(await runAdminCommand(["list"], io, open)).toBe(0);
    expect(io.out_[0]).toMatch(/^EMAIL\s+NAME\s+TWO-FACTOR$/);
    expect(io.out_.find((line) => line.startsWith("ada@example.com"))).toMatch(/Ada Admin\s+off$/);
    expect(io.out_.find((line) => line.startsWith("bo@example.com"))).toMatch(/Bo Staff\s+on$/);
  });

  it("revoke takes staff rights away; list no longer shows the account", async () => {
    const io = lines();
    expect(await runAdminCommand(["revoke", "bo@example.com"], io, open)).toBe(0);
    expect(io.out_).toEqual(["bo@example.com is no longer staff."]);
    const listed = lines();
    await runAdminCommand(["list"], listed, open);
    expect(listed.out_.some((line) => line.startsWith("bo@example.com"))).toBe(false);
  });

  it("an unknown email is exit code 1 with a clear message, and nothing is written", async () => {
    const before = (await database.db.select().from(auditLog)).length;
    const io = lines();
    expect(await runAdminCommand(["grant", "nobody@example.com"], io, open)).toBe(1);
    expect(io.err_.join("\n")).toMatch(/No account has the email nobody@example\.com\. The person signs up first/);
    expect((await database.db.select().from(auditLog)).length).toBe(before);
  });

  it("wrong usage is exit code 2 with the usage text, without opening the database", async () => {
    const opened = closed;
    for (const argv of [[], ["grant"], ["grant", "a@b.c", "d@e.f"], ["list", "x"], ["promote", "a@b.c"], ["grant", "not-an-email"]]) {
      const io = lines();
      expect(await runAdminCommand(argv, io, async () => { throw new Error("must not open"); })).toBe(2);
      expect(io.err_.join("\n")).toContain("Usage: npm run admin -- <command>");
    }
    const unknown = lines();
    await runAdminCommand(["promote"], unknown, open);
    expect(unknown.err_[0]).toMatch(/^Unknown command "promote"\./);
    expect(closed).toBe(opened);
  });
});

describe("npm run admin on the configured embedded database", () => {
  const saved = { DATA_DIR: process.env.DATA_DIR, DOTENV: process.env.DOTENV, DATABASE_URL: process.env.DATABASE_URL };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it("opens DATA_DIR as the server does, and refuses while another process holds the folder", { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-admin-"));
    process.env.DATA_DIR = dir;
    process.env.DOTENV = "off";
    delete process.env.DATABASE_URL;
    const io = lines();
    expect(await runAdminCommand(["list"], io)).toBe(0);
    expect(io.out_).toEqual(["No staff yet. Make the first with: npm run admin -- grant EMAIL"]);
    const lock = acquireDataDirLock(dir);
    try {
      const refused = lines();
      expect(await runAdminCommand(["list"], refused)).toBe(1);
      expect(refused.err_[0]).toMatch(/^Cannot open the database: /);
    } finally {
      lock.release();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
