import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { user } from "#server/platform/db/schema";
import { billingDetailsOf, billingFormOf, checkBillingForm, parseTaxRate, saveBillingDetails, type BillingDetailsForm } from "./billing-details";

const form = (fields: Partial<BillingDetailsForm>): BillingDetailsForm => ({ legalName: "Ada Studio", address: "", country: "", taxId: "", taxLabel: "", taxRate: "", ...fields });

describe("billing details as typed", () => {
  it("reads a tax rate in percent with up to two decimals as basis points", () => {
    expect(["20", "7.5", "19,25", "20 %", "0.01", "50"].map(parseTaxRate)).toEqual([2000, 750, 1925, 2000, 1, 5000]);
    expect(["", "abc", "7.555", "-5", "1e2"].map(parseTaxRate)).toEqual([null, null, null, null, null]);
  });

  it("names each field that needs a change, and keeps a tax only with both its name and rate", () => {
    expect(checkBillingForm(form({ legalName: "  " }))).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS", fieldErrors: { legalName: expect.stringContaining("Enter the name") } });
    expect(checkBillingForm(form({ address: "x".repeat(501), country: "y".repeat(61), taxId: "z".repeat(41) }))).toMatchObject({
      fieldErrors: { address: expect.any(String), country: expect.any(String), taxId: expect.any(String) },
    });
    expect(checkBillingForm(form({ taxLabel: "VAT" }))).toMatchObject({ fieldErrors: { taxRate: "Enter the rate of VAT, or clear its name." } });
    expect(checkBillingForm(form({ taxRate: "20" }))).toMatchObject({ fieldErrors: { taxLabel: expect.stringContaining("Name the tax") } });
    expect(checkBillingForm(form({ taxLabel: "VAT", taxRate: "0" }))).toMatchObject({ fieldErrors: { taxRate: "Enter a rate above 0 and at most 50%." } });
    expect(checkBillingForm(form({ taxLabel: "VAT", taxRate: "50.01" }))).toMatchObject({ fieldErrors: { taxRate: "Enter a rate above 0 and at most 50%." } });
    expect(checkBillingForm(form({ taxLabel: "VAT", taxRate: "twenty" }))).toMatchObject({ fieldErrors: { taxRate: expect.stringContaining("such as 20 or 7.5") } });
    expect(checkBillingForm(form({ legalName: " Ada Studio ", address: "1 Main St\r\nSpringfield\r\n", taxId: " ", taxLabel: "GST", taxRate: "7.5" }))).toEqual({
      kind: "SUCCESS",
      details: { legalName: "Ada Studio", address: "1 Main St\nSpringfield", country: "", taxId: null, tax: { label: "GST", rateBasisPoints: 750 } },
    });
  });
});

describe.each(ENGINES)("saving billing details on %s", (engine) => {
  const database = migratedDatabase(engine);

  it("saves one row per account, replaced by the next save, and shows it back as typed", async () => {
    const db = database.db;
    await db.insert(user).values({ id: "billing_person", name: "Ada", email: "ada@billing.example", emailVerified: true });
    expect(await billingDetailsOf(db, "billing_person")).toBeNull();
    expect(await saveBillingDetails(db, "billing_person", form({ legalName: "", taxLabel: "VAT" }))).toMatchObject({ kind: "ERROR" });
    expect(await billingDetailsOf(db, "billing_person")).toBeNull();
    await saveBillingDetails(db, "billing_person", form({ country: "Ireland", taxId: "IE6388047V", taxLabel: "VAT", taxRate: "23" }));
    await saveBillingDetails(db, "billing_person", form({ legalName: "Ada Lovelace Ltd", country: "Ireland", taxLabel: "VAT", taxRate: "13.5" }));
    const saved = await billingDetailsOf(db, "billing_person");
    expect(saved).toEqual({ legalName: "Ada Lovelace Ltd", address: "", country: "Ireland", taxId: null, tax: { label: "VAT", rateBasisPoints: 1350 } });
    expect(billingFormOf(saved)).toEqual({ legalName: "Ada Lovelace Ltd", address: "", country: "Ireland", taxId: "", taxLabel: "VAT", taxRate: "13.5" });
  });
});
