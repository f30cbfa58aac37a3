import { describe, expect, it } from "vitest";
import { MAX_IMPORT_BYTES } from "./company-csv";
import { readImportForm } from "./import-form";

const post = (body: BodyInit, headers: Record<string, string> = {}) => new Request("http://x.example/app/admin/sponsors/import", { method: "POST", body, headers });
/** A multipart upload as the bytes a browser sends: Node's FormData-bodied Request fails (an
 * unhandled rejection inside undici) when the reader stops early, which no socket body does. */
const rawUpload = (content: string) => {
  const boundary = "----upload";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return post(body, { "Content-Type": `multipart/form-data; boundary=${boundary}` });
};
const multipart = (fill: (form: FormData) => void) => {
  const form = new FormData();
  fill(form);
  return post(form);
};

describe("readImportForm", () => {
  it("reads an uploaded file on preview, and the sent-back text with its fingerprint on apply", async () => {
    const preview = await readImportForm(multipart((f) => (f.append("intent", "preview"), f.append("file", new Blob(["\uFEFFid,name\r\n\"a\rb\"\n"]), "a.csv"))));
    expect(preview).toEqual({ kind: "SUCCESS", intent: "preview", csv: 'id,name\n"a\nb"\n', fingerprint: "" });
    const apply = await readImportForm(multipart((f) => (f.append("intent", "apply"), f.append("csv", "id,name\n"), f.append("fingerprint", "abc"))));
    expect(apply).toEqual({ kind: "SUCCESS", intent: "apply", csv: "id,name\n", fingerprint: "abc" });
  });

  it("refuses what is not a CSV upload, with a reason", async () => {
    const reason = async (request: Request) => {
      const read = await readImportForm(request);
      return read.kind === "ERROR" ? `${read.code}:${read.reason}` : "ok";
    };
    expect(await reason(post("a=b", { "Content-Type": "application/x-www-form-urlencoded" }))).toBe("unsupported-media-type:MALFORMED");
    expect(await reason(multipart((f) => f.append("intent", "preview")))).toBe("invalid-argument:NO_FILE");
    expect(await reason(multipart((f) => f.append("file", new Blob([new Uint8Array([0xff, 0xfe, 0x00, 0x41])]), "x.csv")))).toBe("invalid-argument:NOT_TEXT");
    expect(await reason(multipart((f) => f.append("file", new Blob(["id\0,name"]), "x.csv")))).toBe("invalid-argument:NOT_TEXT");
    expect(await reason(rawUpload("x".repeat(MAX_IMPORT_BYTES + 100_000)))).toBe("invalid-argument:TOO_LARGE");
    expect(await reason(rawUpload("x".repeat(MAX_IMPORT_BYTES + 1)))).toBe("invalid-argument:TOO_LARGE");
    expect(await reason(post("--b\r\ngarbage", { "Content-Type": "multipart/form-data; boundary=b" }))).toBe("invalid-argument:MALFORMED");
  });
});
