import { TEST_CARDS } from "#server/providers/payments/sandbox/cards";

const grouped = (digits: string) => (digits.length === 15 ? `${digits.slice(0, 4)} ${digits.slice(4, 10)} ${digits.slice(10)}` : digits.replace(/(\d{4})(?=\d)/g, "$1 "));

/** The test cards, folded under the card form: which number pays, which is declined, which pays now but fails its renewals. */
export function TestCardList() {
  return (
    <details className="rounded-xl border border-ink/15 p-4 text-sm">
      <summary className="cursor-pointer font-semibold">Test cards</summary>
      <p className="mt-2 text-muted">Any future expiry, any three-digit CVC (four for American Express), any five-digit ZIP code.</p>
      <ul className="mt-2 space-y-1">
        {Object.entries(TEST_CARDS).map(([digits, card]) => (
          <li key={digits}>
            <span className="font-mono">{grouped(digits)}</span> — {card.label}
          </li>
        ))}
      </ul>
    </details>
  );
}
