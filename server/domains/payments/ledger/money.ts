/** "$25.00" from 2500 "usd": minor units shown with the currency's own number of decimals. */
export function formatMoney(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}
