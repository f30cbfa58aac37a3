import type { TermsFieldErrors, TermsFormFields } from "#server/domains/deals/terms-form";
import { MAX_DELIVERABLES } from "#isomorphic/deal-limits";
import { SelectField, TextArea, TextField } from "#page-kit/forms";

export const USAGE_LABELS = {
  none: "No reuse: the content stays on the creator's channels",
  organic: "Organic reuse on the sponsor's own channels",
  paid: "Paid ads and organic reuse",
} as const;

const CHANNELS = ["YouTube", "Instagram", "TikTok", "Twitch", "Podcast", "Newsletter", "Blog", "X", "LinkedIn", "Event"];

/** The terms form's fields as the page fills them first: one empty deliverable, the usual choices. */
export function blankTerms(priceDollars = ""): TermsFormFields {
  return {
    price: priceDollars,
    usageRights: "organic",
    usageDays: "30",
    exclusivityDays: "0",
    autoApproveDays: "3",
    message: "",
    disclosureRequired: true,
    sponsorApproves: true,
    deliverableChannel: [],
    deliverableFormat: [],
    deliverableDue: [],
  };
}

/**
 * The terms of a deal as a form section, without JavaScript: deliverable rows for what is there
 * plus empty ones to fill (empty rows are ignored), the money line with the platform's share,
 * and the finer terms folded under "Rights, exclusivity and approval".
 */
export function TermsFields({ values, errors, feePercent, messageLabel }: { values: TermsFormFields; errors: TermsFieldErrors; feePercent: number; messageLabel: string }) {
  const filled = values.deliverableChannel.length;
  const rows = Math.min(MAX_DELIVERABLES, Math.max(3, filled + 2));
  return (
    <div className="space-y-6">
      <TextField
        label="Price (US dollars)"
        name="price"
        inputMode="decimal"
        defaultValue={values.price}
        error={errors.price}
        aria-required="true"
        hint={feePercent > 0 ? `The sponsor pays this. The platform keeps ${feePercent}%, and the creator receives the rest once the work is approved.` : "The sponsor pays this; the creator receives all of it once the work is approved."}
      />
      <fieldset aria-describedby="deliverables-hint">
        <legend className="font-medium">Deliverables</legend>
        <p id="deliverables-hint" className="mt-1 text-sm text-muted">
          What is made, where it goes live and by when. Leave a row empty to skip it.
        </p>
        {errors.deliverables ? (
          <p className="mt-1 text-sm font-medium text-red-700" role="alert">
            {errors.deliverables}
          </p>
        ) : null}
        <datalist id="deal-channels">
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel} />
          ))}
        </datalist>
        <ol className="mt-3 space-y-3">
          {Array.from({ length: rows }, (_, i) => (
            <li key={i} className="grid gap-3 rounded-lg border border-ink/10 p-3 sm:grid-cols-[1fr_2fr_auto]">
              <TextField label={`Channel ${i + 1}`} name="deliverableChannel" id={`deliverableChannel-${i}`} list="deal-channels" defaultValue={values.deliverableChannel[i] ?? ""} />
              <TextField label={`What is made ${i + 1}`} name="deliverableFormat" id={`deliverableFormat-${i}`} placeholder="A 60-second integration" defaultValue={values.deliverableFormat[i] ?? ""} />
              <TextField label={`Due ${i + 1}`} name="deliverableDue" id={`deliverableDue-${i}`} type="date" defaultValue={values.deliverableDue[i] ?? ""} />
            </li>
          ))}
        </ol>
      </fieldset>
      <details className="rounded-lg border border-ink/10 p-3" open={Boolean(errors.usageRights || errors.usageDays || errors.exclusivityDays || errors.autoApproveDays)}>
        <summary className="cursor-pointer font-medium">Rights, exclusivity and approval</summary>
        <div className="mt-4 space-y-4">
          <SelectField label="Usage rights" name="usageRights" defaultValue={values.usageRights} error={errors.usageRights}>
            {Object.entries(USAGE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label="Usage rights last (days)" name="usageDays" inputMode="numeric" defaultValue={values.usageDays} error={errors.usageDays} />
            <TextField label="Exclusivity (days)" name="exclusivityDays" inputMode="numeric" defaultValue={values.exclusivityDays} error={errors.exclusivityDays} hint="No competing sponsor for this long after the last deliverable." />
            <TextField label="Approval window (days)" name="autoApproveDays" inputMode="numeric" defaultValue={values.autoApproveDays} error={errors.autoApproveDays} hint="Silence this long after a submission approves it." />
          </div>
          <label className="flex items-start gap-2">
            <input type="checkbox" name="disclosureRequired" defaultChecked={values.disclosureRequired} className="mt-1" />
            <span>The content is marked as sponsored (#ad, paid partnership)</span>
          </label>
          <label className="flex items-start gap-2">
            <input type="checkbox" name="sponsorApproves" defaultChecked={values.sponsorApproves} className="mt-1" />
            <span>The sponsor approves each deliverable before it goes live</span>
          </label>
        </div>
      </details>
      <TextArea label={messageLabel} name="message" rows={3} defaultValue={values.message} error={errors.message} />
    </div>
  );
}
