import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { agreedOfferInDb } from "#tests/support/deals";
import { notificationDeps } from "#tests/support/payments";
import { phonePhoto } from "#tests/support/photos";
import { dealBriefs, dealFiles, deals, dealSubmissions, notifications, user } from "#server/platform/db/schema";
import { httpStatusOf } from "#server/platform/errors";
import { DEAL_FILE_MAX_BYTES, MAX_BRIEF_FILES, MAX_BRIEF_TEXT, MAX_MESSAGE_FILES } from "#isomorphic/deal-limits";
import { createSemaphore } from "#server/domains/media/semaphore";
import { saveDealBrief } from "./brief";
import { checkDealFiles, cleanFileName, dealFileHeaders, readDealFile, type UploadedFile } from "./files";
import { readDealRoomFiles, submissionKey } from "./room-files";
import { postDealMessageWithFiles, submitDeliverableWithScreenshot } from "./uploads";

/** A small PDF as a PDF writer leaves it: the signature first, the end marker last. */
function pdf(text = "brief"): Buffer {
  return Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, "latin1");
}

let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
let gif: Buffer;

beforeAll(async () => {
  const canvas = (background: string) => sharp({ create: { width: 640, height: 360, channels: 3, background } });
  png = await canvas("#2040d0").png().toBuffer();
  jpeg = await phonePhoto({ width: 800, height: 600 });
  webp = await canvas("#20d040").webp().toBuffer();
  gif = await canvas("#d02040").gif().toBuffer();
});

const processing = createSemaphore(2);
let people = 0;

describe.each(ENGINES)("files in the deal room on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const deps = () => ({ db: db(), notifications: notificationDeps(db()), processing });

  async function person(): Promise<string> {
    const uid = `files_person_${++people}_${crypto.randomBytes(3).toString("hex")}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@files.example`, emailVerified: true });
    return uid;
  }
  /** An agreed deal between a new creator and a new sponsor; `booked` moves it on to funded, as a payment would. */
  async function deal(booked = false) {
    const creator = await person();
    const { dealId, sponsorUid } = await agreedOfferInDb(db(), creator, { price: 50_000 });
    if (booked) await db().update(deals).set({ state: "funded" }).where(eq(deals.id, dealId));
    return { dealId, creator, sponsor: sponsorUid };
  }
  const filesOf = async (dealId: string) => db().select().from(dealFiles).where(eq(dealFiles.dealId, dealId));
  const messageCount = async (dealId: string) => (await db().select({ n: deals.messageCount }).from(deals).where(eq(deals.id, dealId)))[0]!.n;
  const send = (uid: string, dealId: string, files: UploadedFile[], body = "See attached.") => postDealMessageWithFiles(deps(), { uid, dealId, body, files });

  it("takes JPEG, PNG and WebP (re-encoded, metadata gone) and a PDF (as sent) on a message, and lists them under it", async () => {
    const { dealId, creator, sponsor } = await deal();
    const sent = await send(creator, dealId, [
      { name: "C:\\Users\\me\\holiday.jpeg", bytes: jpeg },
      { name: "logo.PNG", bytes: png },
      { name: "pack.webp", bytes: webp },
      { name: "../../rate card.pdf", bytes: pdf() },
    ]);
    if (sent.kind !== "SUCCESS") throw new Error(sent.message);
    const stored = await filesOf(dealId);
    expect(stored.map((file) => [file.kind, file.contentType, file.name, file.messageSeq])).toEqual(
      expect.arrayContaining([
        ["image", "image/jpeg", "holiday.jpg", sent.seq],
        ["image", "image/png", "logo.png", sent.seq],
        ["image", "image/webp", "pack.webp", sent.seq],
        ["pdf", "application/pdf", "rate card.pdf", sent.seq],
      ]),
    );
    const photo = stored.find((file) => file.name === "holiday.jpg")!;
    expect(photo.bytes.equals(jpeg)).toBe(false);
    const meta = await sharp(photo.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["jpeg", 800, 600, undefined]);
    expect((await sharp(photo.thumb!).metadata()).format).toBe("webp");
    expect(stored.find((file) => file.kind === "pdf")!.bytes.equals(pdf())).toBe(true);

    const room = await readDealRoomFiles(db(), { dealId });
    expect(room.messages[sent.seq]!.map((file) => file.name).sort()).toEqual(["holiday.jpg", "logo.png", "pack.webp", "rate card.pdf"]);
    expect(room.messages[sent.seq]!.find((file) => file.kind === "pdf")!.thumbUrl).toBeNull();
    // The sponsor reads them too.
    const read = await readDealFile(db(), { reader: { uid: sponsor }, dealId, fileId: photo.id, variant: "full" });
    expect(read.kind === "SUCCESS" && read.file.bytes.equals(photo.bytes)).toBe(true);
  });

  it("sends a message of files alone, and still refuses one with neither text nor files", async () => {
    const { dealId, sponsor } = await deal();
    expect(await send(sponsor, dealId, [{ name: "a.pdf", bytes: pdf() }], "")).toMatchObject({ kind: "SUCCESS", seq: 1 });
    expect(await send(sponsor, dealId, [], "  ")).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS" });
    const told = await db().select({ message: notifications.message }).from(notifications).where(eq(notifications.title, "New message"));
    expect(told.some((row) => row.message.endsWith(": a file."))).toBe(true);
  });

  it("refuses each hostile file with a 4xx naming it, and stores nothing of the message", async () => {
    const { dealId, creator } = await deal();
    const big = Buffer.concat([pdf(), Buffer.alloc(DEAL_FILE_MAX_BYTES)]);
    const cases: [string, UploadedFile[], string][] = [
      ["an HTML page renamed", [{ name: "photo.png", bytes: Buffer.from("<!doctype html><script>alert(1)</script>") }], "NOT_AN_IMAGE"],
      ["an SVG renamed", [{ name: "logo.jpg", bytes: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script/></svg>") }], "NOT_AN_IMAGE"],
      ["a GIF renamed", [{ name: "still.png", bytes: gif }], "NOT_AN_IMAGE"],
      ["a program renamed", [{ name: "invoice.pdf", bytes: Buffer.from("MZ\x90\x00\x03\x00\x00\x00 this program cannot be run", "latin1") }], "NOT_AN_IMAGE"],
      ["a truncated PNG", [{ name: "cut.png", bytes: png.subarray(0, Math.floor(png.length * 0.6)) }], "BROKEN"],
      ["a truncated JPEG", [{ name: "cut.jpg", bytes: jpeg.subarray(0, Math.floor(jpeg.length * 0.6)) }], "BROKEN"],
      ["a PDF without its end", [{ name: "cut.pdf", bytes: pdf().subarray(0, 40) }], "BROKEN"],
      ["an empty file", [{ name: "nothing.png", bytes: Buffer.alloc(0) }], "EMPTY"],
      ["a file over the size cap", [{ name: "huge.pdf", bytes: big }], "TOO_LARGE"],
      ["too many files", Array.from({ length: MAX_MESSAGE_FILES + 1 }, (_, i) => ({ name: `p${i}.pdf`, bytes: pdf() })), "TOO_MANY"],
      ["a good file beside a bad one", [{ name: "ok.png", bytes: png }, { name: "bad.png", bytes: Buffer.from("not an image at all") }], "NOT_AN_IMAGE"],
    ];
    for (const [what, files, reason] of cases) {
      const refused = await send(creator, dealId, files);
      if (refused.kind === "SUCCESS") throw new Error(`${what} was taken`);
      expect({ what, reason: refused.reason }).toEqual({ what, reason });
      expect(httpStatusOf(refused.code)).toBeGreaterThanOrEqual(400);
      expect(httpStatusOf(refused.code)).toBeLessThan(500);
      if (reason !== "TOO_MANY") expect(refused.message).toContain(`“${files.at(-1)!.name}”`);
    }
    expect(await filesOf(dealId)).toEqual([]);
    expect(await messageCount(dealId)).toBe(0);
  });

  it("refuses files that come to more than one form may carry together", async () => {
    const nine = Buffer.concat([pdf(), Buffer.alloc(9 * 1024 * 1024)]);
    const refused = await checkDealFiles(processing, Array.from({ length: 5 }, (_, i) => ({ name: `big${i}.pdf`, bytes: nine })), { max: MAX_BRIEF_FILES });
    expect(refused).toMatchObject({ kind: "ERROR", reason: "TOO_LARGE" });
  });

  it("keeps a deal's files from anyone but its two sides, and from another deal's address", async () => {
    const { dealId, creator } = await deal();
    const other = await deal();
    const stranger = await person();
    const sent = await send(creator, dealId, [{ name: "logo.png", bytes: png }]);
    if (sent.kind !== "SUCCESS") throw new Error(sent.message);
    const [file] = await filesOf(dealId);
    const read = (uid: string, inDeal = dealId, variant: "full" | "thumb" = "full") => readDealFile(db(), { reader: { uid }, dealId: inDeal, fileId: file!.id, variant });
    expect(await read(stranger)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await read(other.creator, other.dealId)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await read(creator, other.dealId)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readDealFile(db(), { reader: { uid: creator }, dealId, fileId: "../../etc/passwd", variant: "full" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    // Staff read it to decide a dispute, but only under its own deal's address.
    expect(await readDealFile(db(), { reader: "staff", dealId, fileId: file!.id, variant: "full" })).toMatchObject({ kind: "SUCCESS", file: { name: "logo.png" } });
    expect(await readDealFile(db(), { reader: "staff", dealId: other.dealId, fileId: file!.id, variant: "full" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    const thumb = await read(creator, dealId, "thumb");
    if (thumb.kind !== "SUCCESS") throw new Error(thumb.message);
    expect([thumb.file.contentType, thumb.file.name, (await sharp(thumb.file.bytes).metadata()).width]).toEqual(["image/webp", "logo.webp", 480]);
    // A stranger's upload to the deal is refused before any file is looked at, and nothing is stored.
    expect(await send(stranger, dealId, [{ name: "x.png", bytes: png }])).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await filesOf(dealId)).toHaveLength(1);
  });

  it("lets the sponsor write the brief with assets once agreed, tells the creator of each change, and lets no one else", async () => {
    const { dealId, creator, sponsor } = await deal();
    const stranger = await person();
    const save = (uid: string, body: string, files: UploadedFile[] = [], remove: string[] = []) => saveDealBrief(deps(), { uid, dealId, body, files, remove });
    expect(await save(creator, "My own brief")).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await save(stranger, "Hello")).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await save(sponsor, "x".repeat(MAX_BRIEF_TEXT + 1))).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS" });

    expect(await save(sponsor, "Show the bottle.\nNo competitors.", [{ name: "guidelines.pdf", bytes: pdf() }, { name: "logo.png", bytes: png }])).toMatchObject({ kind: "SUCCESS", changed: true });
    const told = async () => (await db().select({ title: notifications.title }).from(notifications).where(eq(notifications.uid, creator))).map((row) => row.title);
    expect(await told()).toEqual(["Brief added"]);
    const room = await readDealRoomFiles(db(), { dealId });
    expect(room.brief).toMatchObject({ body: "Show the bottle.\nNo competitors." });
    expect(room.brief!.files.map((file) => file.name)).toEqual(["guidelines.pdf", "logo.png"]);

    // Past the cap of assets: refused, and the removal asked with it is undone too.
    const tooMany = Array.from({ length: MAX_BRIEF_FILES }, (_, i) => ({ name: `extra${i}.pdf`, bytes: pdf() }));
    expect(await save(sponsor, "Changed", tooMany, [room.brief!.files[0]!.id])).toMatchObject({ kind: "ERROR", reason: "TOO_MANY" });
    expect((await readDealRoomFiles(db(), { dealId })).brief).toMatchObject({ body: "Show the bottle.\nNo competitors." });
    expect((await readDealRoomFiles(db(), { dealId })).brief!.files).toHaveLength(2);

    expect(await save(sponsor, "Show the bottle.\nNo competitors.", [], [room.brief!.files[0]!.id])).toMatchObject({ kind: "SUCCESS", changed: true });
    expect((await readDealRoomFiles(db(), { dealId })).brief!.files.map((file) => file.name)).toEqual(["logo.png"]);
    expect(await save(sponsor, "Show the bottle.\nNo competitors.")).toMatchObject({ kind: "SUCCESS", changed: false });
    expect(await told()).toEqual(["Brief added", "Brief updated"]);

    // Once the deal ends the brief stays as it was.
    await db().update(deals).set({ state: "completed" }).where(eq(deals.id, dealId));
    expect(await save(sponsor, "Too late")).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    expect((await db().select().from(dealBriefs).where(eq(dealBriefs.dealId, dealId)))[0]!.body).toBe("Show the bottle.\nNo competitors.");
  });

  it("keeps a screenshot beside a handed-in deliverable, and refuses a PDF or a broken image as one with nothing handed in", async () => {
    const { dealId, creator, sponsor } = await deal(true);
    const submit = (uid: string, screenshot: UploadedFile | null) =>
      submitDeliverableWithScreenshot(deps(), { uid, dealId, deliverable: 0, liveUrl: "https://youtu.be/abc", note: "", screenshot });
    expect(await submit(creator, { name: "shot.pdf", bytes: pdf() })).toMatchObject({ kind: "ERROR", reason: "NOT_ALLOWED" });
    expect(await submit(creator, { name: "shot.png", bytes: png.subarray(0, 100) })).toMatchObject({ kind: "ERROR", reason: "BROKEN" });
    expect(await submit(sponsor, { name: "shot.png", bytes: png })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await db().select().from(dealSubmissions).where(eq(dealSubmissions.dealId, dealId))).toEqual([]);
    expect(await filesOf(dealId)).toEqual([]);

    expect(await submit(creator, { name: "Screenshot 2026-11-29.png", bytes: png })).toMatchObject({ kind: "SUCCESS", round: 1 });
    const room = await readDealRoomFiles(db(), { dealId });
    expect(room.submissions[submissionKey(0, 1)]!.map((file) => [file.kind, file.name])).toEqual([["image", "Screenshot 2026-11-29.png"]]);
    const stored = await db().select().from(dealFiles).where(and(eq(dealFiles.dealId, dealId), eq(dealFiles.place, "submission")));
    expect(stored.map((file) => [file.deliverable, file.round, file.uploaderUid])).toEqual([[0, 1, creator]]);
  });
});

describe("a deal file's name and headers", () => {
  it("keeps only a clean last part of the name, with the real type's extension", () => {
    expect(cleanFileName("C:\\fakepath\\My photo.JPEG", "jpg")).toBe("My photo.jpg");
    expect(cleanFileName('../../"evil"\u202Egnp.exe', "png")).toBe("evilgnp.png");
    expect(cleanFileName("", "pdf")).toBe("file.pdf");
    expect(cleanFileName(".htaccess", "pdf")).toBe("htaccess.pdf");
    expect(cleanFileName("a".repeat(300), "pdf")).toHaveLength(104);
  });

  it("sends images inline as their re-encoded type and PDFs as attachments, kept private (nosniff comes from the app's guards: tests/e2e/deal-files.spec.ts)", () => {
    const image = dealFileHeaders({ kind: "image", contentType: "image/png", name: "logo.png", bytes: Buffer.alloc(3) });
    expect(image).toMatchObject({ "Content-Type": "image/png", "Content-Disposition": `inline; filename="logo.png"; filename*=UTF-8''logo.png`, "Content-Length": "3", "Cache-Control": "private, no-store" });
    const doc = dealFileHeaders({ kind: "pdf", contentType: "application/pdf", name: "Café “plan”.pdf", bytes: Buffer.alloc(1) });
    expect(doc["Content-Disposition"]).toBe(`attachment; filename="Caf_ _plan_.pdf"; filename*=UTF-8''Caf%C3%A9%20%E2%80%9Cplan%E2%80%9D.pdf`);
    expect(doc["Content-Security-Policy"]).toContain("sandbox");
  });
});
