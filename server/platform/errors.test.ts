import { describe, expect, it } from "vitest";
import { domainError, ERROR_HTTP_STATUS, errorStatusName, httpStatusOf, isErrorCode } from "./errors";

describe("the error vocabulary", () => {
  it("gives every SPEC §8 code its HTTP status", () => {
    expect(ERROR_HTTP_STATUS).toEqual({
      "invalid-argument": 400,
      unauthenticated: 401,
      "permission-denied": 403,
      "not-found": 404,
      "payment-required": 402,
      aborted: 409,
      gone: 410,
      "unsupported-media-type": 415,
      "unprocessable-content": 422,
      "resource-exhausted": 429,
      cancelled: 499,
      internal: 500,
      unimplemented: 501,
      "bad-gateway": 502,
      unavailable: 503,
      "deadline-exceeded": 504,
    });
    expect(httpStatusOf("permission-denied")).toBe(403);
  });

  it("names codes on the wire in upper snake case", () => {
    expect(errorStatusName("resource-exhausted")).toBe("RESOURCE_EXHAUSTED");
    expect(errorStatusName("deadline-exceeded")).toBe("DEADLINE_EXCEEDED");
  });

  it("builds domain errors with what the caller needs beside the code", () => {
    expect(domainError("invalid-argument", "Required", { field: "title" })).toEqual({
      kind: "ERROR",
      code: "invalid-argument",
      message: "Required",
      field: "title",
    });
  });

  it("knows its own codes and nothing else", () => {
    expect(isErrorCode("not-found")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode("wrong-password")).toBe(false);
  });
});
