import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { emailOutbox } from "#server/platform/db/schema/email";
import { getOutboxMessage, listOutbox } from "./outbox";

describe.each(ENGINES)("outbox on %s", (engine) => {
  const database = migratedDatabase(engine);
  beforeAll(async () => {
    const mail = { from: "Grid <no-reply@grid.example>", html: "<p>x</p>", text: "x" };
    await database.db.insert(emailOutbox).values([
      { ...mail, to: "old@example.com", subject: "Oldest", createdAt: new Date("2030-01-01T10:00:00Z") },
      { ...mail, to: "new@example.com", subject: "Newest", createdAt: new Date("2030-01-01T12:00:00Z"), meta: { url: "http://x/1" } },
      { ...mail, to: "mid@example.com", subject: "Middle", createdAt: new Date("2030-01-01T11:00:00Z") },
    ]);
  });

  it("lists newest first, without bodies, up to the limit", async () => {
    const all = await listOutbox(database.db);
    expect(all.map((mail) => mail.subject)).toEqual(["Newest", "Middle", "Oldest"]);
    expect(Object.keys(all[0]!).sort()).toEqual(["createdAt", "id", "meta", "subject", "to"]);
    expect(all[0]).toMatchObject({ to: "new@example.com", meta: { url: "http://x/1" } });
    expect(all[0]!.createdAt).toBeInstanceOf(Date);
    expect((await listOutbox(database.db, { limit: 2 })).map((mail) => mail.subject)).toEqual(["Newest", "Middle"]);
  });

  it("reads one message by id, with both bodies", async () => {
    const [newest] = await listOutbox(database.db, { limit: 1 });
    expect(await getOutboxMessage(database.db, newest!.id)).toMatchObject({ id: newest!.id, subject: "Newest", html: "<p>x</p>", text: "x" });
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid", "", "1; drop table email_outbox", "00000000-0000-4000-8000-00000000000g"])(
    "returns null for %j",
    async (id) => {
      expect(await getOutboxMessage(database.db, id)).toBeNull();
    },
  );
});
