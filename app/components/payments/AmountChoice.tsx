import { useState, type CSSProperties, type MouseEvent } from "react";
import { amountInputText, parseAmountInput } from "#isomorphic/amount-input";
import type { BioTheme } from "#isomorphic/bio-theme";
import { formatMoney } from "#isomorphic/format";
import { TextField } from "#page-kit/forms";
import { themedButtonStyle } from "./CreatorFrame";

/**
 * A chip in the creator's colours, each pair one the theme's contrast rules
 * hold (isomorphic/bio-theme.ts): a chip not chosen is the page's ground
 * with its text colour, the chosen one the page's button (text on button
 * 4.5:1; button against ground 3:1, so the two states differ by more than a
 * hue). On the white card, the darker of ground and text is always at least
 * 4.5:1 against white, so every chip's edge shows.
 */
function chipStyle(theme: BioTheme, chosen: boolean): CSSProperties {
  return chosen ? themedButtonStyle(theme) : { backgroundColor: theme.background, color: theme.text, borderColor: theme.text };
}

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
  theme,
}: {
  theme: BioTheme;
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
                style={chipStyle(theme, chosen === preset)}
                className="inline-flex min-h-11 min-w-16 items-center justify-center gap-1 rounded-full border-2 px-4 font-semibold no-underline hover:underline"
              >
                {chosen === preset ? <span aria-hidden="true">✓</span> : null}
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
