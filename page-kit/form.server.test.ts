import { httpStatusOf } from "#server/platform/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkEntries, FORM_MESSAGES, MAX_FIELD_CHARS, MAX_FIELDS, readForm } from "./form.server";

const post = (body: BodyInit | null, contentType?: string) =>
  new Request("http://localhost/form", {
    method: "POST",
    headers: contentType ? { "Content-Type": contentType } : {},
    body,
  });
const urlencoded = (body: string | Uint8Array) => post(body as BodyInit, "application/x-www-form-urlencoded");
const entriesOf = (form: FormData) => [...form.entries()];

// Text a person could type: well-formed Unicode without NUL.
const typedText = fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !s.includes("\0"));

describe("readForm: what a browser sends", () => {
  it("reads a urlencoded form exactly as URLSearchParams wrote it, repeated names and all", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(typedText, typedText), { maxLength: 12 }), async (pairs) => {
        const reading = await readForm(urlencoded(new URLSearchParams(pairs).toString()));
        expect(reading.kind).toBe("SUCCESS");
        if (reading.kind === "SUCCESS") expect(entriesOf(reading.form)).toEqual(pairs);
      }),
      { numRuns: 200 },
    );
  });

  it("reads a multipart form exactly as FormData wrote it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(typedText.filter((s) => !/[\r\n"]/.test(s)), typedText), { maxLength: 8 }), async (pairs) => {
        const sent = new FormData();
        for (const [name, value] of pairs) sent.append(name, value);
        const encoded = new Request("http://localhost/", { method: "POST", body: sent });
        const reading = await readForm(encoded);
        expect(reading.kind).toBe("SUCCESS");
        if (reading.kind === "SUCCESS") expect(entriesOf(reading.form)).toEqual(pairs.map(([n, v]) => [n, v.replace(/\r\n|\r(?!\n)|\n/g, "\r\n")]));
      }),
      { numRuns: 100 },
    );
  });

  it("accepts a charset parameter and an empty form", async () => {
    const reading = await readForm(post("", "application/x-www-form-urlencoded; charset=UTF-8"));
    expect(reading).toEqual({ kind: "SUCCESS", form: expect.any(FormData) });
  });
});

describe("readForm: what it refuses, with a message and without throwing", () => {
  it("refuses JSON, text and a missing Content-Type with 415", async () => {
    for (const request of [post('{"email":"a@b.c"}', "application/json"), post("email=a", "text/plain"), post("email=a")]) {
      expect(await readForm(request)).toMatchObject({ kind: "ERROR", code: "unsupported-media-type", message: FORM_MESSAGES.unsupported });
    }
  });

  it("refuses NUL in a value or a name with 400 and gives back the rest without it", async () => {
    const reading = await readForm(urlencoded("title=Hello%00World&na%00me=x"));
    expect(reading).toMatchObject({ kind: "ERROR", code: "invalid-argument", message: FORM_MESSAGES.nul });
    if (reading.kind === "ERROR") expect(entriesOf(reading.salvaged!)).toEqual([["title", "HelloWorld"], ["name", "x"]]);
  });

  it("refuses invalid UTF-8, raw or percent-escaped, and lone surrogates", async () => {
    const bodies: Array<string | Uint8Array> = [
      "title=%FF",
      "title=%C3",
      "title=%ED%A0%80", // an escaped lone surrogate
      "title=%zz",
      new Uint8Array([0x74, 0x3d, 0xc3, 0x28]), // t=\xC3( raw
    ];
    for (const body of bodies) {
      expect(await readForm(urlencoded(body))).toMatchObject({ kind: "ERROR", code: "invalid-argument", message: FORM_MESSAGES.encoding });
    }
    expect(checkEntries([["title", "a\uD800b"]])).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
  });

  it("refuses broken multipart with 400", async () => {
    const broken = [
      post("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue", "multipart/form-data; boundary=x"),
      post("no boundary at all", "multipart/form-data"),
      post("--y\r\n\r\n--y--", "multipart/form-data; boundary=x"),
    ];
    for (const request of broken) expect(await readForm(request)).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
  });

  it("refuses files, too many fields and oversized values", async () => {
    const withFile = new FormData();
    withFile.append("avatar", new File(["x"], "x.txt", { type: "text/plain" }));
    expect(await readForm(new Request("http://localhost/", { method: "POST", body: withFile }))).toMatchObject({
      code: "invalid-argument",
      message: FORM_MESSAGES.file,
    });
    expect(await readForm(urlencoded("a=1&".repeat(MAX_FIELDS + 1)))).toMatchObject({ code: "invalid-argument", message: FORM_MESSAGES.tooMany });
    expect(await readForm(urlencoded(`title=${"x".repeat(MAX_FIELD_CHARS + 1)}`))).toMatchObject({
      code: "invalid-argument",
      message: FORM_MESSAGES.tooLong,
    });
  });

  it("never throws, and whatever it accepts is NUL-free well-formed text", async () => {
    const contentTypes = fc.constantFrom(
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=b",
      "multipart/form-data; boundary=",
      "multipart/form-data",
      "application/json",
      "",
    );
    const hostile = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.json(),
      fc.array(fc.tuple(fc.constantFrom("__proto__", "constructor", "title", "tags", "a[]"), fc.string({ unit: "binary" }))).map(
        (pairs) => `--b\r\n${pairs.map(([n, v]) => `Content-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n--b`).join("\r\n")}--`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(hostile, contentTypes, async (body, type) => {
        const reading = await readForm(post(body as BodyInit, type || undefined));
        if (reading.kind === "ERROR") {
          expect([400, 415]).toContain(httpStatusOf(reading.code));
          expect(reading.message.length).toBeGreaterThan(20);
          return;
        }
        for (const [name, value] of reading.form.entries()) {
          expect(typeof value).toBe("string");
          for (const text of [name, value as string]) {
            expect(text.includes("\0")).toBe(false);
            expect(/\p{Cs}/u.test(text)).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
