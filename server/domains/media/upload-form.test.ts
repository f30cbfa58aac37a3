import { describe, expect, it } from "vitest";
import { PHOTO_MAX_BYTES } from "#isomorphic/photo-upload";
import { PHOTO_BODY_LIMIT, readPhotoForm } from "./upload-form";

const multipart = (file: Blob | null, fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("photo", file, "me.jpg");
  return new Request("http://localhost/app/account/photo", { method: "POST", body: form });
};

/** A body sent in pieces with no Content-Length, as a chunked upload arrives. */
function chunked(total: number) {
  let sent = 0;
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls += 1;
      if (sent >= total) return controller.close();
      const piece = new Uint8Array(Math.min(256 * 1024, total - sent));
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
  const request = new Request("http://localhost/app/account/photo", {
    method: "POST",
    body,
    headers: { "Content-Type": "multipart/form-data; boundary=x" },
    duplex: "half",
  } as RequestInit);
  return { request, sent: () => sent, pulls: () => pulls };
}

describe("readPhotoForm", () => {
  it("reads the photo's bytes", async () => {
    const read = await readPhotoForm(multipart(new Blob([new Uint8Array([1, 2, 3])])));
    expect(read).toMatchObject({ kind: "SUCCESS", intent: "upload" });
    if (read.kind === "SUCCESS" && read.intent === "upload") expect([...read.file]).toEqual([1, 2, 3]);
  });

  it("reads Remove photo, and a form with no file as an empty upload", async () => {
    expect(await readPhotoForm(multipart(null, { intent: "remove" }))).toMatchObject({ kind: "SUCCESS", intent: "remove" });
    const none = await readPhotoForm(multipart(null));
    expect(none.kind === "SUCCESS" && none.intent === "upload" && none.file.length).toBe(0);
  });

  it("refuses a file over the limit", async () => {
    const read = await readPhotoForm(multipart(new Blob([new Uint8Array(PHOTO_MAX_BYTES + 1)])));
    expect(read).toMatchObject({ kind: "ERROR", reason: "TOO_LARGE" });
  });

  it("stops reading a body without Content-Length once it passes the limit", async () => {
    const upload = chunked(PHOTO_BODY_LIMIT * 3);
    const read = await readPhotoForm(upload.request);
    expect(read).toMatchObject({ kind: "ERROR", reason: "TOO_LARGE" });
    expect(upload.sent()).toBeLessThan(PHOTO_BODY_LIMIT + 2 * 1024 * 1024);
  });

  it("refuses a body that is not a form, and garbled multipart", async () => {
    const json = new Request("http://localhost/x", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    expect(await readPhotoForm(json)).toMatchObject({ kind: "ERROR", code: "unsupported-media-type" });
    const garbled = new Request("http://localhost/x", { method: "POST", body: "--nope\r\n", headers: { "Content-Type": "multipart/form-data; boundary=x" } });
    expect(await readPhotoForm(garbled)).toMatchObject({ kind: "ERROR", reason: "MALFORMED" });
  });
});
