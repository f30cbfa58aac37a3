import { Form } from "react-router";
import type { PackageFieldErrors, PackageInput } from "#server/domains/bio/packages";
import { MAX_PACKAGE_DETAILS, MAX_PACKAGE_TITLE, MAX_PACKAGES_PER_PAGE, MAX_TURNAROUND_DAYS, MIN_TURNAROUND_DAYS } from "#isomorphic/bio-packages";
import { FormNotice, primaryButton, secondaryButton, TextArea, TextField } from "#page-kit/forms";

/** The submit intents of the packages' forms on the edit page. */
export const PACKAGE_INTENTS = ["package-add", "package-save", "package-remove", "package-up", "package-down"] as const;
export type PackageIntent = (typeof PACKAGE_INTENTS)[number];

/** A saved package as its form shows it: the price in dollars, as typed. */
export type PackageRow = { id: string; values: PackageInput };

/** What a refused package form answers: which form ("new" or a package id), what was typed and why. */
export type PackagesAnswer = { packageId: string; values: PackageInput; errors: PackageFieldErrors; message?: string; formKey: string };

const BLANK: PackageInput = { title: "", details: "", price: "", turnaroundDays: "" };

function PackageFields({ formId, values, errors }: { formId: string; values: PackageInput; errors: PackageFieldErrors }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        id={`${formId}-title`}
        label="Title"
        name="packageTitle"
        defaultValue={values.title}
        error={errors.title}
        maxLength={MAX_PACKAGE_TITLE}
        hint={`Up to ${MAX_PACKAGE_TITLE} characters, like “Dedicated video”.`}
        className="sm:col-span-2"
      />
      <TextArea
        id={`${formId}-details`}
        label="What is delivered"
        name="packageDetails"
        rows={3}
        defaultValue={values.details}
        error={errors.details}
        maxLength={MAX_PACKAGE_DETAILS}
        hint="What the sponsor gets, in a few lines."
        className="sm:col-span-2"
      />
      <TextField id={`${formId}-price`} label="Price (USD)" name="packagePrice" defaultValue={values.price} error={errors.price} inputMode="decimal" autoComplete="off" hint="In dollars, like 750." />
      <TextField
        id={`${formId}-days`}
        label="Delivered within (days)"
        name="packageDays"
        defaultValue={values.turnaroundDays}
        error={errors.turnaroundDays}
        inputMode="numeric"
        autoComplete="off"
        hint={`From ${MIN_TURNAROUND_DAYS} to ${MAX_TURNAROUND_DAYS} days after you agree.`}
      />
    </div>
  );
}

type Props = {
  packages: PackageRow[];
  /** The answer to the last refused package form, shown in that form only. */
  answer: PackagesAnswer | undefined;
  takesPayments: boolean;
  busy: boolean;
};

/**
 * The bio editor's "Work with me" section: each package its own form (save, move, remove) and
 * one form to add another, all plain forms with an intent, so they work without JavaScript.
 */
export function WorkWithMe({ packages, answer, takesPayments, busy }: Props) {
  const full = packages.length >= MAX_PACKAGES_PER_PAGE;
  const mine = (id: string) => (answer?.packageId === id ? answer : undefined);
  const adding = mine("new");
  return (
    <section aria-labelledby="packages-heading" className="mt-12 rounded-2xl border border-primary/15 bg-white p-5 shadow-sm sm:p-6">
      {/* Not just "Work with me": the preview beside it holds the page's own section of that name. */}
      <h2 id="packages-heading" className="text-xl font-bold">
        Work with me packages
      </h2>
      <p className="mt-2 text-muted">
        Packages are ready-made offers sponsors can request from your page in one step: what you deliver, your price and how soon. A request comes to My deals as an
        offer you can accept, answer with other terms or decline. Your page also shows a “Make an offer” link for anything else.
      </p>
      {!takesPayments ? (
        <div className="mt-4">
          <FormNotice kind="info">
            <p>
              Your page can't take payments yet, so sponsors don't see this section. <a href="/app/payments/setup">Connect your payout account</a> to turn it on.
            </p>
          </FormNotice>
        </div>
      ) : null}
      {packages.length === 0 ? (
        <p className="mt-6 rounded-lg bg-secondary/40 px-4 py-3">
          No packages yet. Add one below, like “Dedicated video, $750, delivered within 14 days”: sponsors see your prices up front, and you get requests that fit.
        </p>
      ) : (
        <ol className="mt-6 space-y-6" aria-label="Your packages">
          {packages.map((row, index) => {
            const refused = mine(row.id);
            const formId = `package-${row.id}`;
            return (
              <li key={refused?.formKey ?? row.id} className="rounded-xl border border-ink/15 p-4">
                <h3 className="font-semibold">
                  {index + 1}. {row.values.title}
                </h3>
                <Form method="post" noValidate className="mt-3 space-y-4">
                  <input type="hidden" name="packageId" value={row.id} />
                  {refused ? <FormNotice>{refused.message ?? "Please correct the fields below: nothing was saved."}</FormNotice> : null}
                  <PackageFields formId={formId} values={refused?.values ?? row.values} errors={refused?.errors ?? {}} />
                  <div className="flex flex-wrap gap-3">
                    <button type="submit" name="intent" value="package-save" className={primaryButton} disabled={busy} aria-label={`Save “${row.values.title}”`}>
                      Save
                    </button>
                    {index > 0 ? (
                      <button type="submit" name="intent" value="package-up" className={secondaryButton} disabled={busy} aria-label={`Move “${row.values.title}” up`}>
                        Move up
                      </button>
                    ) : null}
                    {index < packages.length - 1 ? (
                      <button type="submit" name="intent" value="package-down" className={secondaryButton} disabled={busy} aria-label={`Move “${row.values.title}” down`}>
                        Move down
                      </button>
                    ) : null}
                    <button type="submit" name="intent" value="package-remove" className={secondaryButton} disabled={busy} aria-label={`Remove “${row.values.title}”`}>
                      Remove
                    </button>
                  </div>
                </Form>
              </li>
            );
          })}
        </ol>
      )}
      {full ? (
        <p className="mt-6 text-sm text-muted">You have {MAX_PACKAGES_PER_PAGE} packages, the most a page can have. Remove one to add another.</p>
      ) : (
        <Form key={adding?.formKey ?? "package-new"} method="post" noValidate className="mt-8 space-y-4 border-t border-ink/15 pt-6" aria-labelledby="package-new-heading">
          <h3 id="package-new-heading" className="font-semibold">
            Add a package
          </h3>
          {adding ? <FormNotice>{adding.message ?? "Please correct the fields below: nothing was saved."}</FormNotice> : null}
          <PackageFields formId="package-new" values={adding?.values ?? BLANK} errors={adding?.errors ?? {}} />
          <button type="submit" name="intent" value="package-add" className={primaryButton} disabled={busy}>
            Add package
          </button>
        </Form>
      )}
    </section>
  );
}
