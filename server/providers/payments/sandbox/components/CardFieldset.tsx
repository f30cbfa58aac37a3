import type { ReactNode } from "react";
import { TextField } from "#page-kit/forms";
import type { CardField } from "#server/providers/payments/sandbox/cards";

type Props = {
  legend: string;
  /** Under the card number: which test cards do what here. */
  hint: ReactNode;
  /** The message beside a field the server refused, if any. */
  errorFor: (field: CardField) => string | undefined;
  /** What was typed, kept after a refusal (the card number and CVC never are). */
  values?: { expiry: string; postalCode: string };
};

/** The sandbox's card form fields, the same on its checkouts and its billing portal, as on Stripe's pages. */
export function CardFieldset({ legend, hint, errorFor, values }: Props) {
  return (
    <fieldset className="space-y-4">
      <legend className="font-semibold">{legend}</legend>
      <TextField label="Card number" name="cardNumber" error={errorFor("number")} hint={hint} inputMode="numeric" autoComplete="cc-number" placeholder="1234 1234 1234 1234" maxLength={23} required />
      <div className="grid grid-cols-2 gap-4">
        <TextField label="Expiry (MM / YY)" name="expiry" defaultValue={values?.expiry} error={errorFor("expiry")} inputMode="numeric" autoComplete="cc-exp" placeholder="MM / YY" maxLength={9} required />
        <TextField label="CVC" name="cvc" error={errorFor("cvc")} inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} required />
      </div>
      <TextField label="ZIP code" name="postalCode" defaultValue={values?.postalCode} error={errorFor("postalCode")} inputMode="numeric" autoComplete="postal-code" maxLength={10} required />
    </fieldset>
  );
}
