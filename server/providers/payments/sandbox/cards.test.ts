import { describe, expect, it } from "vitest";
import { CARD_MESSAGES, type CardInput, cardDigits, checkCard, parseExpiry, passesLuhn } from "./cards";

const NOW = new Date("2026-11-22T18:00:00Z");
const good: CardInput = { number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123", postalCode: "94107" };
const check = (overrides: Partial<CardInput>) => checkCard({ ...good, ...overrides }, NOW);

describe("sandbox test cards", () => {
  it.each([
    ["4242 4242 4242 4242", "visa", "4242"],
    ["4242424242424242", "visa", "4242"],
    ["4242-4242-4242-4242", "visa", "4242"],
    ["4000 0000 0000 0077", "visa", "0077"],
    ["5555 5555 5555 4444", "mastercard", "4444"],
    ["6011 1111 1111 1117", "discover", "1117"],
  ])("%s succeeds as %s ending %s", (number, brand, last4) => {
    expect(check({ number })).toEqual({ kind: "SUCCESS", brand, last4 });
  });

  it("takes a four-digit CVC for American Express and refuses three", () => {
    expect(check({ number: "3782 822463 10005", cvc: "1234" })).toEqual({ kind: "SUCCESS", brand: "amex", last4: "0005" });
    expect(check({ number: "3782 822463 10005", cvc: "123" })).toMatchObject({ kind: "ERROR", field: "cvc" });
  });

  it.each([
    ["4000 0000 0000 0002", "card_declined", CARD_MESSAGES.card_declined],
    ["4000 0000 0000 9995", "insufficient_funds", CARD_MESSAGES.insufficient_funds],
    // A real-looking card (passes Luhn) is declined: the sandbox is for test cards only.
    ["4111 1111 1111 1111", "test_mode_live_card", CARD_MESSAGES.test_mode_live_card],
  ])("%s is declined (%s) beside the number field", (number, code, message) => {
    expect(check({ number })).toEqual({ kind: "ERROR", code: "payment-required", field: "number", reason: code, message });
  });

  it.each([
    ["", "empty"],
    ["4242 4242 4242 4241", "fails Luhn"],
    ["4242\u00004242 4242 4242", "a NUL inside"],
    ["4242424242424242\u0000", "a trailing NUL"],
    ["1".repeat(100), "100 digits"],
    ["4".repeat(20), "20 digits"],
    ["42424242", "too short"],
    ["4242 4242 4242 424a", "a letter"],
    ["４２４２４２４２４２４２４２４２", "fullwidth digits"],
    ["4242.4242.4242.4242", "dots"],
    [" ".repeat(1000), "only spaces"],
    ["-".repeat(20), "only dashes"],
  ])("refuses %j (%s) as an invalid number", (number) => {
    expect(check({ number })).toEqual({ kind: "ERROR", code: "payment-required", field: "number", reason: "invalid_number", message: "Your card number is invalid." });
  });

  it.each([
    ["12/34", { month: 12, year: 2034 }],
    ["12 / 34", { month: 12, year: 2034 }],
    ["1234", { month: 12, year: 2034 }],
    ["1/2030", { month: 1, year: 2030 }],
    ["13/30", null],
    ["00/30", null],
    ["12", null],
    ["ab/cd", null],
    ["12/3\u00004", null],
    ["1".repeat(100), null],
  ])("reads expiry %j", (expiry, expected) => {
    expect(parseExpiry(expiry)).toEqual(expected);
  });

  it("refuses an expiry in the past, takes this month, and refuses a year far away", () => {
    expect(check({ expiry: "10/26" })).toEqual({ kind: "ERROR", code: "payment-required", field: "expiry", reason: "expired_card", message: "Your card's expiration date is in the past." });
    expect(check({ expiry: "12/25" })).toMatchObject({ reason: "expired_card" });
    expect(check({ expiry: "11/26" })).toMatchObject({ kind: "SUCCESS" });
    expect(check({ expiry: "12/99" })).toMatchObject({ kind: "ERROR", reason: "invalid_expiry_year" });
    expect(check({ expiry: "" })).toMatchObject({ kind: "ERROR", field: "expiry", reason: "incomplete_expiry" });
  });

  it("checks the number before anything else, then expiry, CVC and ZIP", () => {
    expect(check({ number: "1", expiry: "", cvc: "", postalCode: "" })).toMatchObject({ field: "number" });
    expect(check({ expiry: "", cvc: "", postalCode: "" })).toMatchObject({ field: "expiry" });
    expect(check({ cvc: "12", postalCode: "" })).toMatchObject({ field: "cvc", message: "Your card's security code is incomplete." });
    expect(check({ postalCode: "9410" })).toMatchObject({ field: "postalCode", message: "Your ZIP code is incomplete." });
    expect(check({ postalCode: "94107-1234" })).toMatchObject({ kind: "SUCCESS" });
    // A declined card is still checked for a complete form first, as Stripe's form does.
    expect(check({ number: "4000000000000002", cvc: "" })).toMatchObject({ field: "cvc" });
  });

  it("computes Luhn and keeps digits only", () => {
    expect(passesLuhn("79927398713")).toBe(true);
    expect(passesLuhn("79927398710")).toBe(false);
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
    expect(cardDigits(`4242${" ".repeat(40)}4242424242424242`)).toBeNull();
  });
});
