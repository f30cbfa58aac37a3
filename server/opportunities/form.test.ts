import { describe, expect, it } from "vitest";
import { deadlineFrom, parseOpportunityForm, type OpportunityFormInput } from "./form";

const valid: OpportunityFormInput = {
  title: "Sponsor our podcast",
  description: "Two mid-roll reads per episode.",
  bullets: "- Weekly show\n\n* 20k downloads",
  organization: "Northwind",
  website: "https://northwind.example",
  minContribution: "$1,500",
  deadlineDate: "2026-12-24",
  deadlineTime: "17:30",
  tzOffset: "300",
  contactName: "Jordan",
  contactEmail: "jordan@northwind.example",
  contactPhone: "",
  tags: ["Podcast Sponsorship", "music", "music"],
};

describe("opportunity form", () => {
  it("normalises a valid submission", () => {
    const result = parseOpportunityForm(valid);
    if (result.kind !== "SUCCESS") throw new Error(JSON.stringify(result));
    expect(result.form).toMatchObject({
      bullets: ["Weekly show", "20k downloads"],
      minContribution: 1500,
      tags: ["podcast sponsorship", "music"],
    });
    // 17:30 five hours behind UTC is 22:30 UTC.
    expect(deadlineFrom(result.form)?.toISOString()).toBe("2026-12-24T22:30:00.000Z");
  });

  it("defaults the contribution to 0 and stores no deadline without both parts", () => {
    const result = parseOpportunityForm({ ...valid, minContribution: "", deadlineDate: "", deadlineTime: "" });
    if (result.kind !== "SUCCESS") throw new Error("expected success");
    expect(result.form.minContribution).toBe(0);
    expect(deadlineFrom(result.form)).toBeNull();
  });

  it.each([
    [{ title: "" }, "title", "Required"],
    [{ description: "  " }, "description", "Required"],
    [{ title: "x".repeat(100) }, "title", "Must be under 100 characters"],
    [{ description: "x".repeat(1000) }, "description", "Must be under 1000 characters"],
    [{ organization: "x".repeat(100) }, "organization", "Must be under 100 characters"],
    [{ website: "northwind.example" }, "website", "URL must start with either http:// or https://"],
    [{ contactEmail: "jordan@" }, "contactEmail", "Enter a valid email address, like name@example.com"],
    [{ minContribution: "-5" }, "minContribution", "Enter a whole-dollar amount of 0 or more, like 500"],
    [{ minContribution: "12.50" }, "minContribution", "Enter a whole-dollar amount of 0 or more, like 500"],
    [{ deadlineTime: "" }, "deadlineTime", "Enter both a date and a time, or leave both empty"],
    [{ tags: Array.from({ length: 11 }, (_, i) => `tag ${i}`) }, "tags", "Choose at most 10 tags"],
    [{ bullets: Array.from({ length: 11 }, (_, i) => `point ${i}`).join("\n") }, "bullets", "At most 10 bullet points"],
  ])("refuses %j on %s with %j", (override, field, message) => {
    const result = parseOpportunityForm({ ...valid, ...override } as OpportunityFormInput);
    expect(result.kind).toBe("ERROR");
    if (result.kind === "ERROR") expect(result.fieldErrors[field as keyof typeof result.fieldErrors]).toBe(message);
  });
});
