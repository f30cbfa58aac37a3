import { eq } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBioHost } from "#server/domains/bio/host/bio-host";
import { createViewCounter } from "#server/domains/bio/host/view-counter";
import { readPublicPage } from "#server/domains/bio/public-page";
import { loadConfig } from "#server/platform/config";
import { bioPages, photos, photoVariants, profiles, user } from "#server/platform/db/schema";
import { sharedGenerationSource } from "#server/platform/page-cache/generation";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { appPhotoListener } from "./http";
import { profilePhotoOf, removeProfilePhoto, setProfilePhoto } from "./photos";
import { createSemaphore } from "./semaphore";
import { createPhotoServer, type PhotoServer } from "./serve";

let red: Buffer;
let blue: Buffer;
beforeAll(async () => {
  const square = (background: string) => sharp({ create: { width: 500, height: 400, channels: 3, background } }).jpeg().toBuffer();
  [red, blue] = await Promise.all([square("#d02040"), square("#2040d0")]);
});

let people = 0;
describe.each(ENGINES)("profile photos on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const deps = () => ({ db: db(), processing: createSemaphore(2) });

  async function person(): Promise<string> {
    const uid = `photo-person-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@photo.example`, emailVerified: true });
    await db().insert(profiles).values({ uid, name: uid });
    return uid;
  }
  const photoRows = async (uid: string) => (await db().select({ id: photos.id }).from(photos).where(eq(photos.uid, uid))).map((row) => row.id);
  const variantCount = async (photoId: string) => (await db().select({ size: photoVariants.size }).from(photoVariants).where(eq(photoVariants.photoId, photoId))).length;

  it("saves a photo with its six variants and makes it the profile's", async () => {
    const uid = await person();
    const saved = await setProfilePhoto(deps(), uid, red);
    if (saved.kind !== "SUCCESS") throw new Error(saved.message);
    expect(await profilePhotoOf(db(), uid)).toBe(saved.photoId);
    expect(await photoRows(uid)).toEqual([saved.photoId]);
    expect(await variantCount(saved.photoId)).toBe(6);
  });

  it("replacing a photo removes the old one's rows; removing takes it all away", async () => {
    const uid = await person();
    const first = await setProfilePhoto(deps(), uid, red);
    const second = await setProfilePhoto(deps(), uid, blue);
    if (first.kind !== "SUCCESS" || second.kind !== "SUCCESS") throw new Error("not saved");
    expect(second.photoId).not.toBe(first.photoId);
    expect(await photoRows(uid)).toEqual([second.photoId]);
    expect(await variantCount(first.photoId)).toBe(0);
    await removeProfilePhoto(db(), uid);
    expect(await profilePhotoOf(db(), uid)).toBeNull();
    expect(await photoRows(uid)).toEqual([]);
    expect(await variantCount(second.photoId)).toBe(0);
  });

  it("a refused file changes nothing: the old photo stays", async () => {
    const uid = await person();
    const saved = await setProfilePhoto(deps(), uid, red);
    if (saved.kind !== "SUCCESS") throw new Error(saved.message);
    const refused = await setProfilePhoto(deps(), uid, Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"));
    expect(refused.kind).toBe("ERROR");
    expect(await profilePhotoOf(db(), uid)).toBe(saved.photoId);
    expect(await photoRows(uid)).toEqual([saved.photoId]);
  });

  it("one person's upload or removal never touches another's photo, even of the same picture", async () => {
    const [alice, bob] = [await person(), await person()];
    const hers = await setProfilePhoto(deps(), alice, red);
    const his = await setProfilePhoto(deps(), bob, red);
    if (hers.kind !== "SUCCESS" || his.kind !== "SUCCESS") throw new Error("not saved");
    expect(his.photoId).not.toBe(hers.photoId);
    await removeProfilePhoto(db(), bob);
    await setProfilePhoto(deps(), bob, blue);
    expect(await profilePhotoOf(db(), alice)).toBe(hers.photoId);
    expect(await photoRows(alice)).toEqual([hers.photoId]);
  });

  it("a new or removed photo moves the guest page generation, and the public page reads it", async () => {
    const uid = await person();
    await db().insert(bioPages).values({ id: `photo_page_id_${people}`, uid, name: "Photo Page", customEnding: `photo_page_${people}` });
    const generation = sharedGenerationSource(db());
    const before = await generation.current();
    const saved = await setProfilePhoto(deps(), uid, red);
    if (saved.kind !== "SUCCESS") throw new Error(saved.message);
    const afterSave = await generation.current();
    expect(afterSave).not.toBe(before);
    expect((await readPublicPage(db(), `photo_page_${people}`))?.photoId).toBe(saved.photoId);
    await removeProfilePhoto(db(), uid);
    expect(await generation.current()).not.toBe(afterSave);
    expect((await readPublicPage(db(), `photo_page_${people}`))?.photoId).toBeNull();
    await generation.close();
  });

  describe("served on both hosts", () => {
    let photoId = "";
    let ownerUid = "";
    let server: http.Server;
    let port = 0;
    let photosServer: PhotoServer;
    const generation = { value: 0, current() { return String(this.value); } };

    beforeAll(async () => {
      ownerUid = await person();
      const saved = await setProfilePhoto(deps(), ownerUid, red);
      if (saved.kind !== "SUCCESS") throw new Error(saved.message);
      photoId = saved.photoId;
      photosServer = createPhotoServer({ db: db(), generation });
      const config = loadConfig({ PORT: "3000", TRUST_PROXY: "loopback" });
      const bio = createBioHost({ config, db: db(), generation, counter: createViewCounter(db(), { flushEveryMs: 60_000 }), logger: console, photos: photosServer });
      // As server/main/lifecycle.ts composes them: the bio host, the app host's photos, then the app.
      const appPhotos = appPhotoListener(photosServer, (error) => console.error(error));
      server = http.createServer((req, res) => bio.handles(req) ? bio.handle(req, res) : appPhotos(req, res) || void res.writeHead(404).end("app 404"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const get = (host: string, path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path, headers: { host, ...headers } }, (res) => {
            const parts: Buffer[] = [];
            res.on("data", (part: Buffer) => parts.push(part));
            res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
          })
          .on("error", reject);
      });

    for (const host of ["bio.localhost:3000", "localhost:3000"]) {
      it(`answers ${host} with the bytes, a year's immutable cache, its type, nosniff, and 304 to its ETag`, async () => {
        for (const [size, format] of [[96, "webp"], [192, "avif"], [384, "webp"]] as const) {
          const path = `/media/photos/${photoId}-${size}.${format}`;
          const first = await get(host, path);
          expect(first.status).toBe(200);
          expect(first.headers["content-type"]).toBe(`image/${format}`);
          expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
          expect(first.headers["x-content-type-options"]).toBe("nosniff");
          expect((await sharp(first.body).metadata()).width).toBe(size);
          const again = await get(host, path, { "if-none-match": first.headers.etag! });
          expect(again.status).toBe(304);
          expect(again.body.length).toBe(0);
        }
      });

      it(`answers ${host} 404 for an unknown photo or a malformed address`, async () => {
        for (const path of [`/media/photos/${"0".repeat(32)}-96.webp`, `/media/photos/${photoId}-100.webp`, `/media/photos/${photoId}-96.png`, "/media/photos/../etc/passwd"]) {
          expect((await get(host, path)).status).toBe(404);
        }
      });
    }

    it("stops serving a removed photo once the generation moves, though it was in memory", async () => {
      const path = `/media/photos/${photoId}-96.webp`;
      expect((await get("bio.localhost:3000", path)).status).toBe(200);
      await removeProfilePhoto(db(), ownerUid);
      generation.value += 1;
      expect((await get("bio.localhost:3000", path)).status).toBe(404);
      expect((await get("localhost:3000", path)).status).toBe(404);
    });

    it("answers from memory after the first read", async () => {
      const uid = await person();
      const saved = await setProfilePhoto(deps(), uid, blue);
      if (saved.kind !== "SUCCESS") throw new Error(saved.message);
      const path = `/media/photos/${saved.photoId}-192.webp`;
      const before = photosServer.stats().reads;
      for (let i = 0; i < 5; i++) expect((await get("localhost:3000", path)).status).toBe(200);
      expect(photosServer.stats().reads).toBe(before + 1);
    });
  });
});
