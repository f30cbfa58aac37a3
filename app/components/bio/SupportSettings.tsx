import { FormNotice, TextArea, TextField } from "#page-kit/forms";

/** The settings as the form shows them: amounts as typed, in dollars. */
export type SupportSettingsValues = { acceptTips: boolean; presets: string[]; tipMinimum: string; thankYouMessage: string };
export type SupportSettingsErrors = Partial<Record<"preset0" | "preset1" | "preset2" | "tipMinimum" | "thankYouMessage", string>>;

/** The three amount fields, in the order fans see the amounts. */
export const PRESET_FIELDS = ["preset0", "preset1", "preset2"] as const;
const PRESET_LABELS = ["First amount", "Second amount", "Third amount"];

/**
 * The "Support" part of the bio editor: fields of the editor's one form, saved
 * with every other part by its Save (no button of its own, so it can't drop
 * another part's edits). What it sets is the block fans see right under the name.
 */
export function SupportSettings({
  values,
  errors,
  takesPayments,
  pageName,
}: {
  values: SupportSettingsValues;
  errors: SupportSettingsErrors;
  takesPayments: boolean;
  pageName: string;
}) {
  return (
    <section id="support" aria-labelledby="support-settings-heading" className="mt-10 scroll-mt-6 rounded-2xl border border-ink/15 p-5 sm:p-6">
      <h2 id="support-settings-heading" className="text-xl font-bold">
        Support
      </h2>
      <p className="mt-1 text-muted">
        Right under your name, fans see “Support {pageName || "you"}” with these amounts and “Other”. They can always pay more than your minimum.
      </p>
      {!takesPayments ? (
        <div className="mt-4">
          <FormNotice kind="info">
            <p>
              Your page can't take payments yet, so fans don't see this. <a href="/app/payments/setup">Connect your payout account</a> to turn it on.
            </p>
          </FormNotice>
        </div>
      ) : null}
      <div className="mt-5 space-y-5">
        <label className="flex min-h-11 items-center gap-3 font-medium">
          <input type="checkbox" role="switch" name="acceptTips" value="on" defaultChecked={values.acceptTips} className="h-6 w-6 flex-none accent-primary" />
          Accept tips
        </label>
        <fieldset>
          <legend className="font-medium">Preset amounts (USD)</legend>
          <div className="mt-1 grid gap-3 sm:grid-cols-3">
            {PRESET_LABELS.map((label, index) => {
              const name = PRESET_FIELDS[index]!;
              return (
                <TextField
                  key={name}
                  label={label}
                  name={name}
                  inputMode="decimal"
                  autoComplete="off"
                  defaultValue={values.presets[index] ?? ""}
                  error={errors[name]}
                  className="[&>label]:text-sm [&>label]:font-normal"
                />
              );
            })}
          </div>
        </fieldset>
        <TextField
          label="Minimum tip (USD)"
          name="tipMinimum"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={values.tipMinimum}
          error={errors.tipMinimum}
          hint="The least a fan can pay. At least $0.50, what the payment provider can charge."
        />
        <TextArea
          label="Thank-you message"
          name="thankYouMessage"
          rows={3}
          maxLength={999}
          defaultValue={values.thankYouMessage}
          error={errors.thankYouMessage}
          hint="Shown to fans right after they pay. Leave it empty for a friendly thank-you from us."
        />
      </div>
    </section>
  );
}
