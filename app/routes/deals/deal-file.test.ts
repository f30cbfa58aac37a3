import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { agreedOfferInDb } from "#tests/support/deals";
import { notificationDeps } from "#tests/support/payments";
import { dealFiles, user } from "#server/platform/db/schema";
import { createSemaphore } from "#server/domains/media/semaphore";
import { postDealMessageWithFiles } from "#server/domains/deals/uploads";
import { dealFileAnswer } from "./deal-file.server";

let png: Buffer;
const pdf = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", "latin1");

beforeAll(async () => {
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#3050a0" } }).png().toBuffer();
});

/** What a thrown refusal carries: React Router's data() with the status. */
async function statusOfThrown(answer: Promise<Response>): Promise<number> {
  try {
    await answer;
  } catch (thrown) {
    return (thrown as { init?: { status?: number } }).init?.status ?? 0;
  }
  return 200;
}

describe.each(ENGINES)("serving a deal's files on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let dealId = "";
  let creator = "";
  let sponsor = "";
  let stranger = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const suffix = crypto.randomBytes(3).toString("hex");
    [creator, stranger] = [`serve_creator_${suffix}`, `serve_stranger_${suffix}`];
    for (const uid of [creator, stranger]) await db().insert(user).values({ id: uid, name: uid, email: `${uid}@serve.example`, emailVerified: true });
    ({ dealId, sponsorUid: sponsor } = await agreedOfferInDb(db(), creator, { price: 10_000 }));
    const sent = await postDealMessageWithFiles(
      { db: db(), notifications: notificationDeps(db()), processing: createSemaphore(1) },
      { uid: creator, dealId, body: "Files", files: [{ name: "mood board.png", bytes: png }, { name: "Rate card “2027”.pdf", bytes: pdf }] },
    );
    if (sent.kind !== "SUCCESS") throw new Error(sent.message);
    for (const row of await db().select({ id: dealFiles.id, kind: dealFiles.kind }).from(dealFiles).where(eq(dealFiles.dealId, dealId))) ids[row.kind] = row.id;
  });

  const answer = (uid: string, fileId: string, query = "", inDeal = dealId) =>
    dealFileAnswer(db(), { reader: { uid }, dealId: inDeal, fileId, url: `http://localhost/app/deals/${inDeal}/files/${fileId}${query}` });

  it("serves an image inline as its re-encoded type, run nowhere, kept private", async () => {
    for (const uid of [creator, sponsor]) {
      const response = await answer(uid, ids.image!);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("content-disposition")).toBe(`inline; filename="mood board.png"; filename*=UTF-8''mood%20board.png`);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(300);
    }
    const thumb = await answer(creator, ids.image!, "?size=thumb");
    expect(thumb.headers.get("content-type")).toBe("image/webp");
  });

  it("serves a PDF as an attachment under a cleaned name", async () => {
    const response = await answer(sponsor, ids.pdf!);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Rate card _2027_.pdf"; filename*=UTF-8''Rate%20card%20%E2%80%9C2027%E2%80%9D.pdf`);
    expect(Buffer.from(await response.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it("answers a stranger, another deal's address or an unknown file with the product's not-found", async () => {
    expect(await statusOfThrown(answer(stranger, ids.image!))).toBe(404);
    expect(await statusOfThrown(answer(creator, ids.image!, "", "deal_other"))).toBe(404);
    expect(await statusOfThrown(answer(creator, "0".repeat(32)))).toBe(404);
    expect(await statusOfThrown(answer(sponsor, ids.pdf!, "?size=thumb"))).toBe(404);
  });
});
