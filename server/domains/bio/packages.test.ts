import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_PACKAGES_PER_PAGE } from "#isomorphic/bio-packages";
import type { Db } from "#server/platform/db/client";
import { bioPackages, bioPages, connectedAccounts, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { addPackage, changePackage, listOwnPackages, listPagePackages, movePackage, packageOfPage, parsePackage, removePackage, type PackageInput } from "./packages";
import { readPublicPage } from "./public-page";

const rand = () => crypto.randomBytes(5).toString("hex");

type Creator = { uid: string; pageId: string; ending: string };

async function creator(db: Db, { payable = true } = {}): Promise<Creator> {
  const uid = `creator_${rand()}`;
  const pageId = `page${rand()}`;
  const ending = `pkg_${rand()}`;
  await db.insert(user).values({ id: uid, name: `Creator ${uid}`, email: `${uid}@packages.example`, emailVerified: true });
  if (payable) await db.insert(connectedAccounts).values({ uid, stateToken: `state_${rand()}`, providerAccountId: `acct_${rand()}`, completed: true });
  await db.insert(bioPages).values({ id: pageId, uid, customEnding: ending, name: `Page of ${uid}` });
  return { uid, pageId, ending };
}

const input = (fields: Partial<PackageInput> = {}): PackageInput => ({ title: "Dedicated video", details: "One 8-minute video\nand a pinned comment.", price: "750", turnaroundDays: "14", ...fields });

describe("the package form", () => {
  it("takes a title, what is delivered, a dollar price in minor units and whole days", () => {
    expect(parsePackage(input({ title: "  Dedicated   video ", price: "$1,250.50" }))).toEqual({
      kind: "SUCCESS",
      fields: { title: "Dedicated video", details: "One 8-minute video\nand a pinned comment.", price: 125_050, turnaroundDays: 14 },
    });
  });

  it.each([
    [{ title: " " }, { title: "Give the package a title, like “Dedicated video”" }],
    [{ title: "é".repeat(81) }, { title: "Keep the title to 80 characters or fewer" }],
    [{ details: "" }, { details: "Say what the sponsor gets, like “One 60–90 second integration in a weekly video”" }],
    [{ details: "x".repeat(501) }, { details: "Keep this to 500 characters or fewer" }],
    [{ price: "abc" }, { price: "Enter the price in dollars, like 750 or 750.50" }],
    [{ price: "0" }, { price: expect.stringMatching(/^The price must be from \$/) }],
    [{ price: "100000000" }, { price: expect.stringMatching(/^The price must be from \$/) }],
    [{ turnaroundDays: "0" }, { turnaroundDays: "Enter a whole number of days from 1 to 90" }],
    [{ turnaroundDays: "91" }, { turnaroundDays: "Enter a whole number of days from 1 to 90" }],
    [{ turnaroundDays: "1.5" }, { turnaroundDays: "Enter a whole number of days from 1 to 90" }],
  ])("refuses %j beside its field", (fields, fieldErrors) => {
    const parsed = parsePackage(input(fields));
    expect(parsed).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_FIELDS", fieldErrors });
    if (parsed.kind === "ERROR") expect(Object.keys(parsed.fieldErrors)).toEqual(Object.keys(fieldErrors));
  });
});

describe.each(ENGINES)("packages on %s", (engine) => {
  const database = migratedDatabase(engine);

  it("adds packages in order, lists them for the owner, changes one in place and removes one", async () => {
    const { db } = database;
    const page = await creator(db);
    const owner = { uid: page.uid };
    const first = await addPackage(db, owner, page.pageId, input());
    const second = await addPackage(db, owner, page.pageId, input({ title: "Short", price: "250", turnaroundDays: "3" }));
    if (first.kind !== "SUCCESS" || second.kind !== "SUCCESS") throw new Error("not added");
    expect(first.package).toMatchObject({ title: "Dedicated video", price: 75_000, currency: "usd", turnaroundDays: 14 });
    expect((await listPagePackages(db, page.pageId)).map((item) => item.title)).toEqual(["Dedicated video", "Short"]);

    expect(await changePackage(db, owner, page.pageId, first.package.id, input({ title: "Long video", price: "900" }))).toMatchObject({ kind: "SUCCESS", package: { title: "Long video", price: 90_000 } });
    const bad = await changePackage(db, owner, page.pageId, first.package.id, input({ price: "0" }));
    expect(bad).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS" });
    const listed = await listOwnPackages(db, owner, page.pageId);
    expect(listed.kind === "SUCCESS" && listed.packages.map((item) => [item.title, item.price])).toEqual([["Long video", 90_000], ["Short", 25_000]]);

    expect(await removePackage(db, owner, page.pageId, first.package.id)).toEqual({ kind: "SUCCESS", title: "Long video" });
    expect(await removePackage(db, owner, page.pageId, first.package.id)).toMatchObject({ kind: "ERROR", code: "not-found" });
    // A package added after a removal still goes last.
    await addPackage(db, owner, page.pageId, input({ title: "Third" }));
    expect((await listPagePackages(db, page.pageId)).map((item) => item.title)).toEqual(["Short", "Third"]);
  });

  it(`holds a page to ${MAX_PACKAGES_PER_PAGE} packages`, async () => {
    const { db } = database;
    const page = await creator(db);
    const owner = { uid: page.uid };
    for (let i = 0; i < MAX_PACKAGES_PER_PAGE; i++) expect(await addPackage(db, owner, page.pageId, input({ title: `P${i}` }))).toMatchObject({ kind: "SUCCESS" });
    expect(await addPackage(db, owner, page.pageId, input({ title: "One too many" }))).toMatchObject({ kind: "ERROR", code: "resource-exhausted", reason: "TOO_MANY_PACKAGES" });
    // Two at once are one after the other: still no seventh.
    const ids = (await listPagePackages(db, page.pageId)).map((item) => item.id);
    await removePackage(db, owner, page.pageId, ids[0]!);
    const both = await Promise.all([addPackage(db, owner, page.pageId, input({ title: "A" })), addPackage(db, owner, page.pageId, input({ title: "B" }))]);
    expect(both.map((result) => result.kind).sort()).toEqual(["ERROR", "SUCCESS"]);
    expect(await listPagePackages(db, page.pageId)).toHaveLength(MAX_PACKAGES_PER_PAGE);
  });

  it("moves a package up and down, and does nothing past either end", async () => {
    const { db } = database;
    const page = await creator(db);
    const owner = { uid: page.uid };
    for (const title of ["A", "B", "C"]) await addPackage(db, owner, page.pageId, input({ title }));
    const titles = async () => (await listPagePackages(db, page.pageId)).map((item) => item.title);
    const idOf = async (title: string) => (await listPagePackages(db, page.pageId)).find((item) => item.title === title)!.id;
    expect(await movePackage(db, owner, page.pageId, await idOf("C"), "up")).toEqual({ kind: "SUCCESS", moved: true });
    expect(await titles()).toEqual(["A", "C", "B"]);
    expect(await movePackage(db, owner, page.pageId, await idOf("A"), "down")).toEqual({ kind: "SUCCESS", moved: true });
    expect(await titles()).toEqual(["C", "A", "B"]);
    expect(await movePackage(db, owner, page.pageId, await idOf("C"), "up")).toEqual({ kind: "SUCCESS", moved: false });
    expect(await movePackage(db, owner, page.pageId, await idOf("B"), "down")).toEqual({ kind: "SUCCESS", moved: false });
    expect(await titles()).toEqual(["C", "A", "B"]);
  });

  it("answers not found to anyone but the page's owner, and to another page's package, and writes nothing", async () => {
    const { db } = database;
    const page = await creator(db);
    const other = await creator(db);
    const owner = { uid: page.uid };
    const stranger = { uid: other.uid };
    const added = await addPackage(db, owner, page.pageId, input());
    const theirs = await addPackage(db, stranger, other.pageId, input({ title: "Theirs" }));
    if (added.kind !== "SUCCESS" || theirs.kind !== "SUCCESS") throw new Error("not added");
    const id = added.package.id;
    const notFound = { kind: "ERROR", code: "not-found" };

    expect(await listOwnPackages(db, stranger, page.pageId)).toMatchObject(notFound);
    // Even a bad form is "not found" for a stranger: the refusal tells nothing about the page.
    expect(await addPackage(db, stranger, page.pageId, input({ price: "0" }))).toMatchObject(notFound);
    expect(await addPackage(db, stranger, page.pageId, input())).toMatchObject(notFound);
    expect(await changePackage(db, stranger, page.pageId, id, input({ title: "Hijacked" }))).toMatchObject(notFound);
    expect(await removePackage(db, stranger, page.pageId, id)).toMatchObject(notFound);
    expect(await movePackage(db, stranger, page.pageId, id, "up")).toMatchObject(notFound);
    // The stranger's own page with this page's package in the address is not found either.
    expect(await changePackage(db, stranger, other.pageId, id, input({ title: "Hijacked" }))).toMatchObject(notFound);
    expect(await changePackage(db, stranger, other.pageId, id, input({ price: "0" }))).toMatchObject(notFound);
    expect(await removePackage(db, stranger, other.pageId, id)).toMatchObject(notFound);
    expect(await movePackage(db, stranger, other.pageId, id, "down")).toMatchObject(notFound);
    // Addresses that are no ids at all.
    expect(await addPackage(db, owner, "no such/page", input())).toMatchObject(notFound);
    expect(await changePackage(db, owner, page.pageId, "x".repeat(500), input())).toMatchObject(notFound);

    const [row] = await db.select().from(bioPackages).where(eq(bioPackages.id, id));
    expect(row).toMatchObject({ title: "Dedicated video", bioPageId: page.pageId });
    expect(await listPagePackages(db, page.pageId)).toHaveLength(1);

    expect(await packageOfPage(db, page.pageId, id)).toMatchObject({ id, title: "Dedicated video" });
    expect(await packageOfPage(db, page.pageId, theirs.package.id)).toBeNull();
    expect(await packageOfPage(db, page.pageId, "")).toBeNull();
  });

  it("shows packages on the public page only while it takes payments, and they go with the page", async () => {
    const { db } = database;
    const payable = await creator(db);
    const unpaid = await creator(db, { payable: false });
    await addPackage(db, { uid: payable.uid }, payable.pageId, input());
    await addPackage(db, { uid: unpaid.uid }, unpaid.pageId, input());
    expect((await readPublicPage(db, payable.ending))?.packages).toMatchObject([{ title: "Dedicated video", price: 75_000, turnaroundDays: 14 }]);
    expect((await readPublicPage(db, unpaid.ending))?.packages).toEqual([]);
    await db.delete(bioPages).where(eq(bioPages.id, payable.pageId));
    expect(await db.select().from(bioPackages).where(eq(bioPackages.bioPageId, payable.pageId))).toEqual([]);
  });
});
