import { describe, expect, it } from "vitest";
import { fieldRefusal } from "#server/platform/errors";
import { parseOpportunityForm, type OpportunityFormInput } from "./form";

const valid: OpportunityFormInput = {
  title: "Sponsor our podcast",
  description: "Two mid-roll reads per episode.",
  bullets: "- Weekly show\n\n* 20k downloads",
  organization: "Northwind",
  website: "https://northwind.example",
  minContribution: "$1,500",
  deadlineDate: "2026-12-24",
  deadlineTime: "17:30",
  deadlineTimeZone: "America/New_York",
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
    // 17:30 in New York in December (EST, five hours behind UTC) is 22:30 UTC.
    expect(result.form.deadline).toEqual({ at: new Date("2026-12-24T22:30:00.000Z"), timeZone: "America/New_York" });
  });

  it("defaults the contribution to 0 and stores no deadline without both parts", () => {
    const result = parseOpportunityForm({ ...valid, minContribution: "", deadlineDate: "", deadlineTime: "" });
    if (result.kind !== "SUCCESS") throw new Error("expected success");
    expect(result.form.minContribution).toBe(0);
    expect(result.form.deadline).toBeNull();
    expect(result.notice).toBeNull();
  });

  it.each([{ deadlineTime: "" }, { deadlineDate: "" }])("saves a half-filled deadline %j as none, with a notice saying so (SPEC §5)", (half) => {
    const result = parseOpportunityForm({ ...valid, ...half });
    expect(result).toMatchObject({ kind: "SUCCESS", form: { deadline: null }, notice: "Saved without a deadline: a deadline needs both a date and a time." });
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
    [{ deadlineDate: "2026-02-30" }, "deadlineDate", "Enter a real date: that day doesn't exist"],
    [{ deadlineDate: "0000-01-01" }, "deadlineDate", "Enter a year from 1900 to 9999"],
    [{ deadlineTime: "25:99" }, "deadlineTime", "Enter a time between 00:00 and 23:59"],
    [{ deadlineTimeZone: "" }, "deadlineTimeZone", "Choose a time zone from the list"],
    [{ tags: Array.from({ length: 11 }, (_, i) => `tag ${i}`) }, "tags", "Choose at most 10 tags"],
    [{ bullets: Array.from({ length: 11 }, (_, i) => `point ${i}`).join("\n") }, "bullets", "At most 10 bullet points"],
    [{ bullets: "- Weekly show\n- \n- 20k downloads" }, "bullets", "Benefit cannot be blank"],
    [{ bullets: "•" }, "bullets", "Benefit cannot be blank"],
    [{ bullets: "Weekly show\n  *   " }, "bullets", "Benefit cannot be blank"],
  ])("refuses %j on %s with %j", (override, field, message) => {
    const result = parseOpportunityForm({ ...valid, ...override } as OpportunityFormInput);
    expect(result.kind).toBe("ERROR");
    if (result.kind === "ERROR") expect(result.fieldErrors[field as keyof typeof result.fieldErrors]).toBe(message);
  });

  it.each([
    [{ deadlineDate: "2026-02-30" }, { deadlineDate: "Enter a real date: that day doesn't exist" }],
  ])("reports the deadline's message %j together with the other fields' messages", (deadline, message) => {
    const result = parseOpportunityForm({ ...valid, title: "", ...deadline });
    expect(result).toEqual(fieldRefusal({ title: "Required", ...message }));
  });
});
