import { formatMoney } from "#isomorphic/format";

/** SPEC §5: a blank or $0 minimum means funds cannot be collected through the platform. */
export function contributionText(minContributionCents: number, currency: string, appName: string, locale = "en-US"): string {
  return minContributionCents > 0
    ? `Minimum contribution ${formatMoney(minContributionCents, currency, locale)}`
    : `Funds can't be collected through ${appName}`;
}
