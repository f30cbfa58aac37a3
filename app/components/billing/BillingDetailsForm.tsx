import { Form, useNavigation } from "react-router";
import type { BillingDetailsForm as Fields, BillingFieldErrors } from "#server/domains/accounts/billing-details";
import { primaryButton, TextArea, TextField } from "#page-kit/forms";

type Limits = { legalName: number; address: number; country: number; taxId: number; taxLabel: number; maxRatePercent: number };

/**
 * The billing details form: a plain POST, so it works without JavaScript; a refused field keeps
 * what was typed and says what to change beside it. The tax part is in its own group, since only
 * creators who charge a tax need it.
 */
export function BillingDetailsForm({ values, errors, limits }: { values: Fields; errors: BillingFieldErrors; limits: Limits }) {
  const saving = useNavigation().formData?.get("intent") === "save";
  return (
    <Form method="post" noValidate className="space-y-5">
      <TextField
        label="Legal name"
        name="legalName"
        defaultValue={values.legalName}
        maxLength={limits.legalName}
        autoComplete="organization"
        required
        error={errors.legalName}
        hint="Your own name or your company's, as invoices should show it."
      />
      <TextArea
        label="Address (optional)"
        name="address"
        defaultValue={values.address}
        maxLength={limits.address}
        rows={4}
        autoComplete="street-address"
        error={errors.address}
        hint="As many lines as the post needs."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Country (optional)" name="country" defaultValue={values.country} maxLength={limits.country} autoComplete="country-name" error={errors.country} />
        <TextField label="Tax id (optional)" name="taxId" defaultValue={values.taxId} maxLength={limits.taxId} error={errors.taxId} hint="A VAT number, EIN or similar." />
      </div>
      <fieldset className="rounded-lg border border-ink/15 p-4">
        <legend className="px-1 font-semibold">Tax included in your prices (creators, optional)</legend>
        <p className="text-sm text-muted">
          If you charge a tax such as VAT, your invoices show the part of the price that is that tax. Nothing is added to the price the sponsor pays,
          and you remain responsible for the tax: this site does not charge or collect it.
        </p>
        <div className="mt-4 grid gap-5 sm:grid-cols-2">
          <TextField label="Name of the tax" name="taxLabel" defaultValue={values.taxLabel} maxLength={limits.taxLabel} placeholder="VAT" error={errors.taxLabel} />
          <TextField
            label="Rate (%)"
            name="taxRate"
            defaultValue={values.taxRate}
            inputMode="decimal"
            placeholder="20"
            error={errors.taxRate}
            hint={`Above 0 and at most ${limits.maxRatePercent}, up to two decimals.`}
          />
        </div>
      </fieldset>
      <button type="submit" name="intent" value="save" className={primaryButton} disabled={saving}>
        {saving ? "Saving..." : "Save billing details"}
      </button>
    </Form>
  );
}
