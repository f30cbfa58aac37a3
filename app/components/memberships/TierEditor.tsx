import { Form } from "react-router";
import type { TierFieldErrors, TierInput } from "#server/domains/memberships/tier-form";
import { MEMBERSHIP_LIMITS } from "#isomorphic/membership-limits";
import { FormNotice, primaryButton, secondaryButton, TextArea, TextField } from "#page-kit/forms";

/** The submit intents of the tiers' forms. */
export const TIER_INTENTS = ["tier-add", "tier-save", "tier-up", "tier-down", "tier-pause", "tier-resume", "tier-retire"] as const;
export type TierIntent = (typeof TIER_INTENTS)[number];

/** A saved tier as its form shows it: prices in dollars, as typed; how it stands and who belongs. */
export type TierRow = { id: string; name: string; status: "active" | "paused" | "retired"; members: number; memberLimit: number | null; values: TierInput };

/** What a refused tier form answers: which form ("new" or a tier id), what was typed and why. */
export type TiersAnswer = { tierId: string; values: TierInput; errors: TierFieldErrors; message?: string; formKey: string };

const STATUS_TEXT = { active: "Offered", paused: "Paused: no new members", retired: "Retired: off your page" } as const;

export function membersText(row: Pick<TierRow, "members" | "memberLimit">): string {
  const members = row.members === 1 ? "1 member" : `${row.members} members`;
  return row.memberLimit === null ? members : `${members} of ${row.memberLimit}`;
}

function TierFields({ formId, values, errors }: { formId: string; values: TierInput; errors: TierFieldErrors }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        id={`${formId}-name`}
        label="Name"
        name="tierName"
        defaultValue={values.name}
        error={errors.name}
        maxLength={MEMBERSHIP_LIMITS.nameMax}
        hint="Like “Gold” or “Supporter”."
        className="sm:col-span-2"
      />
      <TextField id={`${formId}-monthly`} label="Monthly price (USD)" name="monthlyPrice" defaultValue={values.monthlyPrice} error={errors.monthlyPrice} inputMode="decimal" autoComplete="off" hint="In dollars, like 5." />
      <TextField
        id={`${formId}-yearly`}
        label="Yearly price (USD, optional)"
        name="yearlyPrice"
        defaultValue={values.yearlyPrice}
        error={errors.yearlyPrice}
        inputMode="decimal"
        autoComplete="off"
        hint="Leave blank to sell by the month only."
      />
      <TextArea
        id={`${formId}-benefits`}
        label="Benefits"
        name="benefits"
        rows={4}
        defaultValue={values.benefits}
        error={errors.benefits}
        hint={`What members get, one a line, up to ${MEMBERSHIP_LIMITS.benefitsMax}.`}
        className="sm:col-span-2"
      />
      <TextField
        id={`${formId}-limit`}
        label="Member limit (optional)"
        name="memberLimit"
        defaultValue={values.memberLimit}
        error={errors.memberLimit}
        inputMode="numeric"
        autoComplete="off"
        hint="Leave blank for no limit. When it is reached your page says “Full”."
        className="sm:col-span-2"
      />
      <TextArea
        id={`${formId}-welcome`}
        label="Welcome message"
        name="welcomeMessage"
        rows={3}
        defaultValue={values.welcomeMessage}
        error={errors.welcomeMessage}
        maxLength={MEMBERSHIP_LIMITS.welcomeMax}
        hint="New members see it after paying, and in their welcome mail."
        className="sm:col-span-2"
      />
    </div>
  );
}

const BLANK: TierInput = { name: "", monthlyPrice: "", yearlyPrice: "", benefits: "", memberLimit: "", welcomeMessage: "" };

type Props = { tiers: TierRow[]; answer: TiersAnswer | undefined; busy: boolean };

/**
 * A page's membership tiers, each its own plain form (save, move, pause or resume, retire) and one
 * to add another, so every button works without JavaScript; a refused form comes back with what
 * was typed and each message beside its field.
 */
export function TierEditor({ tiers, answer, busy }: Props) {
  const offered = tiers.filter((row) => row.status !== "retired");
  const retired = tiers.filter((row) => row.status === "retired");
  const full = offered.length >= MEMBERSHIP_LIMITS.tiersPerPage;
  const mine = (id: string) => (answer?.tierId === id ? answer : undefined);
  const adding = mine("new");
  const label = (row: TierRow) => `“${row.name}”`;
  return (
    <>
      {offered.length === 0 ? (
        <p className="mt-6 rounded-lg bg-secondary/40 px-4 py-3">No tiers yet. Add one below, like “Supporter, $5 a month”: fans who join pay you every month until they cancel.</p>
      ) : (
        <ol className="mt-6 space-y-6" aria-label="Your tiers">
          {offered.map((row, index) => {
            const refused = mine(row.id);
            return (
              <li key={refused?.formKey ?? row.id} className="rounded-xl border border-ink/15 p-4">
                <h3 className="font-semibold">
                  {index + 1}. {row.name}
                </h3>
                <p className="mt-1 text-sm text-muted">
                  {STATUS_TEXT[row.status]} · {membersText(row)}
                </p>
                <Form method="post" noValidate className="mt-3 space-y-4" aria-label={`Tier ${row.name}`}>
                  <input type="hidden" name="tierId" value={row.id} />
                  {refused ? <FormNotice>{refused.message ?? "Please correct the fields below: nothing was saved."}</FormNotice> : null}
                  <TierFields formId={`tier-${row.id}`} values={refused?.values ?? row.values} errors={refused?.errors ?? {}} />
                  <div className="flex flex-wrap gap-3">
                    <button type="submit" name="intent" value="tier-save" className={primaryButton} disabled={busy} aria-label={`Save ${label(row)}`}>
                      Save
                    </button>
                    {index > 0 ? (
                      <button type="submit" name="intent" value="tier-up" className={secondaryButton} disabled={busy} aria-label={`Move ${label(row)} up`}>
                        Move up
                      </button>
                    ) : null}
                    {index < offered.length - 1 ? (
                      <button type="submit" name="intent" value="tier-down" className={secondaryButton} disabled={busy} aria-label={`Move ${label(row)} down`}>
                        Move down
                      </button>
                    ) : null}
                    {row.status === "paused" ? (
                      <button type="submit" name="intent" value="tier-resume" className={secondaryButton} disabled={busy} aria-label={`Resume ${label(row)}`}>
                        Resume
                      </button>
                    ) : (
                      <button type="submit" name="intent" value="tier-pause" className={secondaryButton} disabled={busy} aria-label={`Pause ${label(row)}`}>
                        Pause
                      </button>
                    )}
                    <button type="submit" name="intent" value="tier-retire" className={secondaryButton} disabled={busy} aria-label={`Retire ${label(row)}`}>
                      Retire
                    </button>
                  </div>
                </Form>
              </li>
            );
          })}
        </ol>
      )}
      {full ? (
        <p className="mt-6 text-sm text-muted">
          You offer {MEMBERSHIP_LIMITS.tiersPerPage} tiers, the most a page can. Retire one to add another.
        </p>
      ) : (
        <Form key={adding?.formKey ?? "tier-new"} method="post" noValidate className="mt-8 space-y-4 border-t border-ink/15 pt-6" aria-labelledby="tier-new-heading">
          <h3 id="tier-new-heading" className="font-semibold">
            Add a tier
          </h3>
          {adding ? <FormNotice>{adding.message ?? "Please correct the fields below: nothing was saved."}</FormNotice> : null}
          <TierFields formId="tier-new" values={adding?.values ?? BLANK} errors={adding?.errors ?? {}} />
          <button type="submit" name="intent" value="tier-add" className={primaryButton} disabled={busy}>
            Add tier
          </button>
        </Form>
      )}
      {retired.length > 0 ? (
        <section aria-labelledby="retired-heading" className="mt-10 border-t border-ink/15 pt-6">
          <h3 id="retired-heading" className="font-semibold">
            Retired tiers
          </h3>
          <p className="mt-1 text-sm text-muted">Off your page. Their members stay members at the price they joined at.</p>
          <ul className="mt-4 space-y-3">
            {retired.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-ink/15 p-4">
                <span>
                  <span className="font-semibold">{row.name}</span> <span className="text-sm text-muted">· {membersText(row)}</span>
                </span>
                {mine(row.id)?.message ? <FormNotice>{mine(row.id)?.message}</FormNotice> : null}
                <Form method="post">
                  <input type="hidden" name="tierId" value={row.id} />
                  <button type="submit" name="intent" value="tier-resume" className={secondaryButton} disabled={busy || full} aria-label={`Offer ${label(row)} again`}>
                    Offer again
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
