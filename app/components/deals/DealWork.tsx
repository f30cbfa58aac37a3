import { Form } from "react-router";
import type { DeliverableWork, SubmissionView } from "#server/domains/deals/work-view";
import type { DealSide } from "#server/platform/db/schema";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import type { DealFileView } from "#server/domains/deals/files";
import { DEAL_FILE_MAX_TEXT, DEAL_IMAGE_ACCEPT, DEAL_IMAGE_TYPES_TEXT, MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { DealFileField, DealFileList } from "./DealFiles";
import { primaryButton, secondaryButton, TextArea, TextField } from "#page-kit/forms";

/** A work form the server sent back, with what was typed and why not. */
export type RefusedWork = { intent: string; deliverable: number; errors: { liveUrl?: string; note?: string; screenshot?: string }; liveUrl?: string; note?: string };

type Props = {
  work: DeliverableWork[];
  side: DealSide;
  names: Record<DealSide, string>;
  locale: string;
  /** Only a booked deal takes work; a completed one shows what was done. */
  open: boolean;
  refused: RefusedWork | null;
  busy: (intent: string) => boolean;
  /** The screenshots handed in, by submissionKey (deliverable and round). */
  screenshots: Record<string, DealFileView[]>;
};

/**
 * "The work": each deliverable of the accepted terms, where it stands and every round of it; the
 * creator hands it in with its live address, the sponsor approves it or asks for changes.
 */
export function DealWork({ work, side, names, locale, open, refused, busy, screenshots }: Props) {
  const done = work.filter((d) => d.submissions.at(-1)?.state === "approved").length;
  return (
    <section aria-labelledby="work-heading" className="mt-8">
      <h2 id="work-heading" className="text-xl font-bold">
        The work
      </h2>
      <p className="mt-1 text-muted">
        {done} of {work.length} approved.{" "}
        {open ? (side === "creator" ? `Hand in each deliverable once it is live; ${names.sponsor} reviews it.` : `Review each deliverable as ${names.creator} hands it in.`) : null}
      </p>
      <ol className="mt-4 space-y-4">
        {work.map((deliverable) => (
          <li key={deliverable.index} className="rounded-2xl border border-ink/10 p-4">
            <h3 className="font-semibold">
              {deliverable.index + 1}. {deliverable.format} on {deliverable.channel}
            </h3>
            <p className="text-sm text-muted">Due {deliverable.dueDate}</p>
            <Latest deliverable={deliverable} names={names} side={side} locale={locale} screenshots={screenshots} />
            {open ? <WorkForms deliverable={deliverable} side={side} names={names} refused={refused?.deliverable === deliverable.index ? refused : null} busy={busy} /> : null}
            {deliverable.submissions.length > 1 ? (
              <details className="mt-3">
                <summary className="cursor-pointer text-sm font-semibold">Earlier rounds</summary>
                <ol className="mt-2 space-y-2 text-sm">
                  {deliverable.submissions.slice(0, -1).map((s) => (
                    <li key={s.round}>
                      Round {s.round}: <a href={s.liveUrl} rel="noopener noreferrer nofollow ugc">{s.liveUrl}</a>
                      {s.reviewNote ? ` · changes asked: “${s.reviewNote}”` : ""}
                      <DealFileList files={screenshots[`${deliverable.index}-${s.round}`] ?? []} label={`Screenshot of round ${s.round}`} />
                    </li>
                  ))}
                </ol>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Latest({ deliverable, names, side, locale, screenshots }: { deliverable: DeliverableWork; names: Record<DealSide, string>; side: DealSide; locale: string; screenshots: Record<string, DealFileView[]> }) {
  const latest: SubmissionView | undefined = deliverable.submissions.at(-1);
  if (!latest) return <p className="mt-2">Not handed in yet.</p>;
  const sponsor = side === "sponsor" ? "your" : `${names.sponsor}'s`;
  return (
    <div className="mt-2 space-y-1">
      <p>
        Handed in on <LocalDateTime iso={latest.submittedAt} serverLocale={locale} />:{" "}
        <a href={latest.liveUrl} rel="noopener noreferrer nofollow ugc" className="break-all">
          {latest.liveUrl}
        </a>
      </p>
      {latest.note ? <p className="whitespace-pre-line text-muted">{latest.note}</p> : null}
      <DealFileList files={screenshots[`${deliverable.index}-${latest.round}`] ?? []} label="Screenshot handed in with it" />
      {latest.state === "submitted" ? (
        <p className="rounded-lg bg-amber-50 p-2 text-amber-900">
          Waiting on {sponsor} review
          {latest.autoApproveAt ? (
            <>
              ; approved on its own on <LocalDateTime iso={latest.autoApproveAt} serverLocale={locale} /> if nothing is said
            </>
          ) : null}
          .
        </p>
      ) : null}
      {latest.state === "changes_requested" ? <p className="rounded-lg bg-secondary/40 p-2">Changes asked: “{latest.reviewNote}”</p> : null}
      {latest.state === "approved" ? (
        <p className="font-semibold text-emerald-900">✓ Approved{latest.approvedBySilence ? " (the review window passed without an answer)" : ""}</p>
      ) : null}
    </div>
  );
}

function WorkForms({ deliverable, side, names, refused, busy }: { deliverable: DeliverableWork; side: DealSide; names: Record<DealSide, string>; refused: RefusedWork | null; busy: (intent: string) => boolean }) {
  const latest = deliverable.submissions.at(-1);
  const id = (name: string) => `${name}-${deliverable.index}`;
  if (side === "creator" && (!latest || latest.state === "changes_requested")) {
    return (
      <Form method="post" encType="multipart/form-data" noValidate className="mt-3 space-y-3">
        <input type="hidden" name="deliverable" value={deliverable.index} />
        <TextField
          label={`Where is “${deliverable.format}” live?`}
          name="liveUrl"
          id={id("live-url")}
          type="url"
          required
          placeholder="https://"
          defaultValue={refused?.liveUrl}
          error={refused?.intent === "submit" ? refused.errors.liveUrl : undefined}
        />
        <DealFileField
          label="A screenshot (optional)"
          name="screenshot"
          id={id("screenshot")}
          accept={DEAL_IMAGE_ACCEPT}
          multiple={false}
          hint={`One image, ${DEAL_IMAGE_TYPES_TEXT}, up to ${DEAL_FILE_MAX_TEXT}: shown to ${names.sponsor} beside the link.`}
          error={refused?.intent === "submit" ? refused.errors.screenshot : undefined}
        />
        <TextArea label={`A note to ${names.sponsor} (optional)`} name="note" id={id("submit-note")} rows={2} maxLength={MAX_DEAL_TEXT} defaultValue={refused?.intent === "submit" ? refused.note : undefined} error={refused?.intent === "submit" ? refused.errors.note : undefined} />
        <button type="submit" name="intent" value="submit" className={primaryButton} disabled={busy("submit")}>
          {latest ? "Hand in again" : "Hand in"}
        </button>
      </Form>
    );
  }
  if (side === "sponsor" && latest?.state === "submitted") {
    return (
      <div className="mt-3 flex flex-wrap items-start gap-3">
        <Form method="post">
          <input type="hidden" name="deliverable" value={deliverable.index} />
          <button type="submit" name="intent" value="approve" className={primaryButton} disabled={busy("approve")}>
            Approve
          </button>
        </Form>
        {deliverable.changeRoundsLeft > 0 ? (
          <details className="flex-1" open={refused?.intent === "changes"}>
            <summary className={`${secondaryButton} cursor-pointer`}>Ask for changes ({deliverable.changeRoundsLeft} left)</summary>
            <Form method="post" className="mt-3 space-y-3">
              <input type="hidden" name="deliverable" value={deliverable.index} />
              <TextArea label="What should change?" name="note" id={id("changes-note")} rows={3} maxLength={MAX_DEAL_TEXT} defaultValue={refused?.note} error={refused?.intent === "changes" ? refused.errors.note : undefined} />
              <button type="submit" name="intent" value="changes" className={secondaryButton} disabled={busy("changes")}>
                Send back for changes
              </button>
            </Form>
          </details>
        ) : (
          <p className="text-sm text-muted">No change rounds left: approve it, or talk it through in the messages.</p>
        )}
      </div>
    );
  }
  return null;
}
