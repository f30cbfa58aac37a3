import type { DealTermsVersion, FeeSplit } from "#server/domains/deals/read";
import { formatIsoDate, formatMoney } from "#isomorphic/format";
import { USAGE_LABELS } from "./TermsFields";

type Line = { label: string; value: string };

/** Terms as the lines a person reads, in the order they matter: money, work, rights. */
export function termsLines(terms: DealTermsVersion): Line[] {
  return [
    { label: "Price", value: formatMoney(terms.price, terms.currency) },
    ...terms.deliverables.map((d, i) => ({ label: `Deliverable ${i + 1}`, value: `${d.format} on ${d.channel}, due ${formatIsoDate(d.dueDate)}` })),
    { label: "Usage rights", value: terms.usageRights === "none" ? USAGE_LABELS.none : `${USAGE_LABELS[terms.usageRights]}, for ${terms.usageDays} days` },
    { label: "Exclusivity", value: terms.exclusivityDays ? `${terms.exclusivityDays} days after the last deliverable` : "None" },
    { label: "Disclosure", value: terms.disclosureRequired ? "Marked as sponsored" : "Not required" },
    { label: "Approval", value: terms.sponsorApproves ? `The sponsor approves each deliverable; silence approves after ${terms.autoApproveDays} days` : "Goes live without approval" },
  ];
}

/** The labels whose value differs from the version before: what the deal page marks as changed. */
export function changedLabels(terms: DealTermsVersion, before: DealTermsVersion | undefined): Set<string> {
  if (!before) return new Set();
  const old = new Map(termsLines(before).map((line) => [line.label, line.value]));
  return new Set(termsLines(terms).filter((line) => old.get(line.label) !== line.value).map((line) => line.label));
}

/** One version of the terms, with what changed since the one before marked, and the money split. */
export function TermsSummary({ terms, before, split }: { terms: DealTermsVersion; before?: DealTermsVersion; split?: FeeSplit }) {
  const changed = changedLabels(terms, before);
  const removed = before ? termsLines(before).filter((line) => line.label.startsWith("Deliverable ") && !termsLines(terms).some((l) => l.label === line.label)) : [];
  return (
    <div>
      <dl className="divide-y divide-ink/10">
        {termsLines(terms).map((line) => (
          <div key={line.label} className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr]">
            <dt className="text-sm text-muted">{line.label}</dt>
            <dd className="font-medium">
              {line.value}
              {changed.has(line.label) ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">Changed</span> : null}
            </dd>
          </div>
        ))}
        {removed.map((line) => (
          <div key={line.label} className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr]">
            <dt className="text-sm text-muted">{line.label}</dt>
            <dd className="text-muted line-through">
              {line.value} <span className="ml-1 no-underline">(removed)</span>
            </dd>
          </div>
        ))}
      </dl>
      {split ? (
        <p className="mt-3 rounded-lg bg-secondary/40 p-3 text-sm">
          {split.platformFee > 0
            ? `The sponsor pays ${formatMoney(split.price, terms.currency)}. The platform keeps ${formatMoney(split.platformFee, terms.currency)} (${split.percent}%); the creator receives ${formatMoney(split.creatorReceives, terms.currency)}.`
            : `The sponsor pays ${formatMoney(split.price, terms.currency)}; the creator receives all of it.`}
        </p>
      ) : null}
    </div>
  );
}
