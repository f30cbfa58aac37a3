import { describe, expect, it } from "vitest";
import { createRenderedDocuments, plainJson, type RenderInput } from "./rendered-documents";

const listData = (viewer: string, liked: boolean, unread = 0) => ({
  root: { site: { appName: "Sponsorgrid", year: 2026 }, toast: null, account: { name: viewer, email: `${viewer}@example.com`, unreadNotifications: unread } },
  "routes/opportunities/list": { items: [{ id: "8000000000_a", title: "A post", totalHearts: liked ? 1 : 0, liked }], total: 1, error: null },
});
const input = (overrides: Partial<RenderInput> = {}): RenderInput => ({
  method: "GET",
  url: "http://localhost/app/opportunities",
  status: 200,
  optedIn: true,
  loaderData: listData("maya", false),
  actionData: null,
  errors: null,
  nonce: "nonce-one-AAAAAAAAAAAAAA",
  ...overrides,
});

describe("documents kept by what they were rendered from", () => {
  it("gives another key to any change of the data: a heart, an unread alert, another person", () => {
    const documents = createRenderedDocuments();
    const key = documents.keyOf(input())!;
    expect(key).toEqual(documents.keyOf(input({ nonce: "another-nonce-BBBBBBBBBB" })));
    const others = [
      input({ loaderData: listData("maya", true) }),
      input({ loaderData: listData("maya", false, 1) }),
      input({ loaderData: listData("omar", false) }),
      input({ url: "http://localhost/app/opportunities?page=1" }),
      input({ nonce: null }),
    ].map((one) => documents.keyOf(one));
    for (const other of others) expect(other).not.toBeNull();
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  it("keeps nothing for routes that did not opt in, other methods, other statuses, errors or action data", () => {
    const documents = createRenderedDocuments();
    expect(documents.keyOf(input({ optedIn: false }))).toBeNull();
    expect(documents.keyOf(input({ method: "POST" }))).toBeNull();
    expect(documents.keyOf(input({ status: 400 }))).toBeNull();
    expect(documents.keyOf(input({ errors: { root: new Error("x") } }))).toBeNull();
    expect(documents.keyOf(input({ actionData: { "routes/x": { saved: true } } }))).toBeNull();
  });

  it("keeps nothing for data that serialises more than one way", () => {
    for (const odd of [new Date(0), new Map(), new Set(["a"]), undefined, Number.NaN, Infinity, -0, () => 1, 1n, Promise.resolve(1)]) {
      expect(plainJson({ a: [odd] })).toBeNull();
      expect(createRenderedDocuments().keyOf(input({ loaderData: { root: { value: odd } } }))).toBeNull();
    }
    expect(plainJson({ a: [1, "x", null, true, { b: 0 }] })).toBe('{"a":[1,"x",null,true,{"b":0}]}');
  });

  it("sends a kept document with the request's own nonce in place of the one it was rendered with", () => {
    const documents = createRenderedDocuments();
    const key = documents.keyOf(input())!;
    expect(documents.take(key, "fresh")).toBeNull();
    documents.keep(key, { html: '<script nonce="nonce-one-AAAAAAAAAAAAAA">1</script><link nonce="nonce-one-AAAAAAAAAAAAAA">', nonce: "nonce-one-AAAAAAAAAAAAAA" });
    expect(documents.take(key, "fresh-nonce-CCCCCCCCCCCC")).toBe('<script nonce="fresh-nonce-CCCCCCCCCCCC">1</script><link nonce="fresh-nonce-CCCCCCCCCCCC">');
  });

  it("holds at most its byte budget, dropping the least recently used first", () => {
    const documents = createRenderedDocuments({ maxBytes: 8 * 1000 });
    const page = (n: number) => ({ html: `${n}`.padEnd(400, "x"), nonce: null });
    const keys = [1, 2, 3, 4, 5, 6].map((n) => documents.keyOf(input({ url: `http://localhost/app?${n}`, nonce: null }))!);
    keys.slice(0, 5).forEach((key, i) => documents.keep(key, page(i + 1)));
    // 800 bytes each (UTF-16), budget 8,000: all five fit.
    expect(documents.take(keys[0]!, null)).not.toBeNull();
    for (let n = 0; n < 6; n++) documents.keep(documents.keyOf(input({ url: `http://localhost/other?${n}`, nonce: null }))!, page(10 + n));
    // Ten fit: the first, used last, stays; the second, the oldest, went.
    expect(documents.take(keys[0]!, null)).not.toBeNull();
    expect(documents.take(keys[1]!, null)).toBeNull();
    // A document bigger than an eighth of the budget is never kept.
    documents.keep(keys[5]!, { html: "y".repeat(600), nonce: null });
    expect(documents.take(keys[5]!, null)).toBeNull();
  });
});
