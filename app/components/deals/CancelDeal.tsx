import { Form } from "react-router";
import type { DealSide } from "#server/platform/db/schema";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { secondaryButton, TextArea } from "#page-kit/forms";

type Props = {
  side: DealSide;
  names: Record<DealSide, string>;
  /** The price held, in words ("$450"). */
  held: string;
  actions: Set<string>;
  cancelRequest: { byYou: boolean; reason: string | null } | null;
  /** A deliverable is past its due date and was never handed in: the sponsor may cancel alone. */
  late: boolean;
  error?: string;
  busy: (intent: string) => boolean;
};

/**
 * Ending a booked deal without the work: one side asks, the other agrees, and the sponsor's money
 * goes back in full; after a missed due date the sponsor may cancel alone.
 */
export function CancelDeal({ side, names, held, actions, cancelRequest, late, error, busy }: Props) {
  const other = side === "creator" ? "sponsor" : "creator";
  return (
    <section aria-labelledby="cancel-heading" className="mt-8 rounded-2xl border border-ink/10 p-4">
      <h2 id="cancel-heading" className="text-lg font-bold">
        Cancel the deal
      </h2>
      {cancelRequest ? (
        <p className="mt-2 rounded-lg bg-amber-50 p-3 text-amber-900" role="status">
          {cancelRequest.byYou ? `You asked to cancel. Waiting on ${names[other]} to agree.` : `${names[other]} asked to cancel.`}
          {cancelRequest.reason ? ` “${cancelRequest.reason}”` : ""}
        </p>
      ) : (
        <p className="mt-2 text-muted">If you both agree to cancel, the deal ends and the sponsor's {held} is refunded in full.</p>
      )}
      <div className="mt-3 flex flex-wrap items-start gap-3">
        {actions.has("agree_cancel") ? (
          <Form method="post">
            <button type="submit" name="intent" value="agree_cancel" className={secondaryButton} disabled={busy("agree_cancel")}>
              Agree: cancel and refund {held}
            </button>
          </Form>
        ) : null}
        {late && actions.has("cancel_late") ? (
          <Form method="post">
            <button type="submit" name="intent" value="cancel_late" className={secondaryButton} disabled={busy("cancel_late")}>
              A due date was missed: cancel and refund me
            </button>
          </Form>
        ) : null}
        {actions.has("request_cancel") ? (
          <details className="flex-1" open={!!error}>
            <summary className={`${secondaryButton} cursor-pointer`}>Ask to cancel</summary>
            <Form method="post" className="mt-3 space-y-3">
              <TextArea label={`Why, in a word to ${names[other]} (optional)`} name="reason" id="cancel-reason" rows={2} maxLength={MAX_DEAL_TEXT} error={error} />
              <button type="submit" name="intent" value="request_cancel" className={secondaryButton} disabled={busy("request_cancel")}>
                Ask {names[other]} to cancel
              </button>
            </Form>
          </details>
        ) : null}
      </div>
    </section>
  );
}
