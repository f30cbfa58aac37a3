import { useState, type MouseEvent } from "react";
import { amountInputText, parseAmountInput } from "#isomorphic/amount-input";
import { formatMoney } from "#isomorphic/format";
import { TextField } from "#page-kit/forms";

/**
 * The tip's amount: the creator's preset amounts as chips, and the field
 * that is what is paid. Each chip is a link to this checkout with that amount
 * chosen, so it works without JavaScript (the page loads again with it in
 * the field); with JavaScript a chip just fills the field.
 */
export function AmountChoice({
  presets,
  presetHref,
  defaultValue,
  error,
  hint,
}: {
  presets: number[];
  presetHref: (amount: number) => string;
  defaultValue: string;
  error?: string;
  hint: string;
}) {
  const [amount, setAmount] = useState(defaultValue);
  const chosen = parseAmountInput(amount);
  const pick = (preset: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setAmount(amountInputText(preset));
  };
  return (
    <div>
      {presets.length > 0 ? (
        <ul aria-label="Suggested amounts" className="mb-3 flex flex-wrap gap-2">
          {presets.map((preset) => (
            <li key={preset}>
              <a
                href={presetHref(preset)}
                onClick={pick(preset)}
                aria-current={chosen === preset ? "true" : undefined}
                className={`inline-flex min-h-11 min-w-16 items-center justify-center rounded-full border-2 px-4 font-semibold no-underline ${
                  chosen === preset ? "border-primary bg-primary text-white" : "border-primary/40 bg-white text-primary hover:border-primary"
                }`}
              >
                {formatMoney(preset)}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <TextField
        label="Amount (USD)"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={error}
        hint={hint}
      />
    </div>
  );
}
