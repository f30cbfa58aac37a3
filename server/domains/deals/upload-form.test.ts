import { describe, expect, it } from "vitest";
import { DEAL_UPLOAD_BODY_LIMIT, DEAL_PAGE_PATH, isMultipartForm, readDealUploadForm } from "./upload-form";

const request = (form: FormData) => new Request("http://localhost/app/deals/deal1", { method: "POST", body: form });

describe("readDealUploadForm", () => {
  it("reads the text fields and each file field's files, leaving out an empty choice", async () => {
    const form = new FormData();
    form.append("intent", "message");
    form.append("body", "Here you go");
    form.append("files", new Blob([new Uint8Array([1, 2])]), "a.png");
    form.append("files", new Blob([new Uint8Array([3])]), "b.pdf");
    form.append("screenshot", new Blob([]), "");
    form.append("remove", "x");
    form.append("remove", "y");
    const read = await readDealUploadForm(request(form));
    if (read.kind !== "SUCCESS") throw new Error(read.message);
    expect([read.text("intent"), read.text("body"), read.texts("remove")]).toEqual(["message", "Here you go", ["x", "y"]]);
    expect(read.files("files").map((file) => [file.name, [...file.bytes]])).toEqual([["a.png", [1, 2]], ["b.pdf", [3]]]);
    expect(read.files("screenshot")).toEqual([]);
    expect(isMultipartForm(request(form))).toBe(true);
  });

  it("stops reading a body without Content-Length once it passes the limit", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= DEAL_UPLOAD_BODY_LIMIT * 3) return controller.close();
        const piece = new Uint8Array(1024 * 1024);
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
    const chunked = new Request("http://localhost/app/deals/deal1", { method: "POST", body, headers: { "Content-Type": "multipart/form-data; boundary=x" }, duplex: "half" } as RequestInit);
    expect(await readDealUploadForm(chunked)).toMatchObject({ kind: "ERROR", reason: "TOO_LARGE" });
    expect(sent).toBeLessThan(DEAL_UPLOAD_BODY_LIMIT + 4 * 1024 * 1024);
  });

  it("refuses a declared body over the limit unread, and a form that is not multipart", async () => {
    const declared = new Request("http://localhost/x", { method: "POST", body: "x", headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(DEAL_UPLOAD_BODY_LIMIT + 1) } });
    expect(await readDealUploadForm(declared)).toMatchObject({ kind: "ERROR", reason: "TOO_LARGE" });
    const urlencoded = new Request("http://localhost/x", { method: "POST", body: "a=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(await readDealUploadForm(urlencoded)).toMatchObject({ kind: "ERROR", code: "unsupported-media-type" });
  });

  it("gives its cap to the deal page's address only, not to the deal room's other addresses", () => {
    expect(["/app/deals/deal1a2b", "/app/deals/deal1a2b.data"].every((path) => DEAL_PAGE_PATH.test(path))).toBe(true);
    expect(["/app/deals", "/app/deals/x/files/y", "/app/dealsx/y", "/app/deals/a/b"].some((path) => DEAL_PAGE_PATH.test(path))).toBe(false);
  });
});
