import { describe, expect, it } from "vitest";
import { newOpportunityId } from "./ids";

describe("newOpportunityId", () => {
  it("encodes 10,000,000,000 minus the creation time in seconds", () => {
    const id = newOpportunityId(new Date("2026-11-21T00:00:00Z"));
    expect(id).toMatch(/^8204780800_[0-9A-Za-z]{20}$/);
  });

  it("sorts newer posts first as plain strings", () => {
    const older = newOpportunityId(new Date("2026-01-01T00:00:00Z"));
    const newer = newOpportunityId(new Date("2026-06-01T00:00:00Z"));
    expect([older, newer].sort()).toEqual([newer, older]);
  });
});
