/**
 * Amounts as people type them in dollar fields (checkout, the editor's tip
 * amounts) and back. Integer arithmetic only: no float ever touches money.
 */

const AMOUNT_PATTERN = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * "25", "25.5", "25.50", "$1,250.00" → minor units (2500, 2550, 2550, 125000);
 * null for anything else (negative, three decimals, letters, empty).
 */
export function parseAmountInput(text: string): number | null {
  const match = AMOUNT_PATTERN.exec(text.trim());
  if (!match) return null;
  const dollars = Number(match[1]!.replaceAll(",", ""));
  const cents = Number((match[2] ?? "").padEnd(2, "0"));
  return dollars * 100 + cents;
}

/** Amounts as the field shows them again: 2500 → "25", 2550 → "25.50". */
export function amountInputText(minorUnits: number): string {
  const dollars = Math.floor(minorUnits / 100);
  const cents = minorUnits % 100;
  return cents === 0 ? String(dollars) : `${dollars}.${String(cents).padStart(2, "0")}`;
}
