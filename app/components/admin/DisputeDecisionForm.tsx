import { useState } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { amountInputText, parseAmountInput } from "#isomorphic/amount-input";
import { disputeSplit, DISPUTE_DECISION_LABELS, type DisputeDecisionName } from "#isomorphic/deal-disputes";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { formatMoney } from "#isomorphic/format";

export type DisputeFormAnswer = { fieldErrors?: { decision?: string; sponsorRefund?: string; reason?: string }; message?: string };

type Props = {
  /** What the sponsor paid and the platform's fee fixed then, in minor units. */
  funding: { amount: number; platformFee: number };
  currency: string;
};

const DECISIONS = Object.keys(DISPUTE_DECISION_LABELS) as DisputeDecisionName[];

/**
 * Staff's decision on a disputed deal: release, refund or split, with a reason both sides read and
 * the audit log keeps. Where each part of the money goes is shown before anyone submits (computed
 * by the same rule the server applies); without JavaScript the hint says the rule in words.
 */
export function DisputeDecisionForm({ funding, currency }: Props) {
  const answer = useActionData() as DisputeFormAnswer | undefined;
  const busy = useNavigation().state !== "idle";
  const [decision, setDecision] = useState<DisputeDecisionName | null>(null);
  const [refundText, setRefundText] = useState(amountInputText(Math.floor(funding.amount / 2)));
  const refund = parseAmountInput(refundText);
  const split = decision && (decision !== "split" || (refund !== null && refund >= 1 && refund < funding.amount)) ? disputeSplit(funding, decision, refund ?? 0) : null;
  const money = (minor: number) => formatMoney(minor, currency);
  const errors = answer?.fieldErrors ?? {};
  return (
    <Form method="post" className="mt-4 max-w-xl space-y-4">
      <fieldset aria-describedby={errors.decision ? "decision-error" : undefined}>
        <legend className="text-sm font-semibold">Decision</legend>
        {DECISIONS.map((name) => (
          <label key={name} className="mt-2 flex items-start gap-2">
            <input type="radio" name="decision" value={name} required className="mt-1" onChange={() => setDecision(name)} />
            <span>{DISPUTE_DECISION_LABELS[name]}</span>
          </label>
        ))}
        {errors.decision ? (
          <p id="decision-error" className="mt-1 text-sm text-red-800">
            {errors.decision}
          </p>
        ) : null}
      </fieldset>
      <div>
        <label htmlFor="sponsorRefund" className="block text-sm font-semibold">
          For a split: refund to the sponsor (of {money(funding.amount)})
        </label>
        <input
          id="sponsorRefund"
          name="sponsorRefund"
          inputMode="decimal"
          value={refundText}
          onChange={(event) => setRefundText(event.target.value)}
          aria-invalid={errors.sponsorRefund ? true : undefined}
          aria-describedby={errors.sponsorRefund ? "refund-error" : "refund-hint"}
          className="mt-1 block w-40 rounded-md border border-black/25 px-2 py-1.5"
        />
        {errors.sponsorRefund ? (
          <p id="refund-error" className="mt-1 text-sm text-red-800">
            {errors.sponsorRefund}
          </p>
        ) : (
          <p id="refund-hint" className="mt-1 text-sm text-muted">
            The rest is released to the creator, less the platform's fee in proportion. Ignored for release and refund.
          </p>
        )}
      </div>
      {split ? (
        <p role="status" className="rounded-md bg-black/5 p-3 text-sm">
          The sponsor gets back {money(split.sponsorRefund)}; the creator is paid {money(split.creatorShare)}; the platform keeps {money(split.platformKeeps)}.
        </p>
      ) : null}
      <div>
        <label htmlFor="decision-reason" className="block text-sm font-semibold">
          Reason (both sides read it; kept in the audit log)
        </label>
        <textarea
          id="decision-reason"
          name="reason"
          required
          maxLength={MAX_DEAL_TEXT}
          rows={3}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? "decision-reason-error" : undefined}
          className="mt-1 block w-full rounded-md border border-black/25 px-2 py-1.5"
        />
        {errors.reason ? (
          <p id="decision-reason-error" className="mt-1 text-sm text-red-800">
            {errors.reason}
          </p>
        ) : null}
      </div>
      {answer?.message ? (
        <p role="alert" className="text-sm text-red-800">
          {answer.message}
        </p>
      ) : null}
      <button type="submit" disabled={busy} className="rounded-full border border-red-700 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50">
        {busy ? "Deciding..." : "Decide and move the money"}
      </button>
    </Form>
  );
}
