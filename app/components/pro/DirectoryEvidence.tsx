import type { DirectoryCounts, LockedPreview } from "#server/domains/sponsor-directory/evidence";
import { SampleNotice } from "#app/components/sponsor-directory/SampleNotice";

const count = new Intl.NumberFormat("en-US");

/**
 * What Pro unlocks, shown rather than told: how many companies the directory holds and how many
 * arrived this month (read from the database on each visit), and one company as a person without
 * Pro sees it, with each fact Pro adds drawn as a locked placeholder. The placeholders are shapes,
 * not blurred text: the facts themselves never reach this page.
 */
export function DirectoryEvidence({ counts, preview }: { counts: DirectoryCounts; preview: LockedPreview | null }) {
  return (
    <section aria-labelledby="evidence-heading" className="mt-8 grid gap-6 lg:grid-cols-2">
      <div>
        <h2 id="evidence-heading" className="text-xl font-bold">
          What Pro unlocks
        </h2>
        <dl className="mt-4 grid grid-cols-2 gap-4">
          <div className="flex flex-col-reverse justify-end rounded-2xl bg-primary/5 p-4">
            <dt className="text-sm text-muted">{`${counts.samples ? "sample " : ""}${counts.companies === 1 ? "company" : "companies"} in the directory`}</dt>
            <dd className="text-3xl font-bold" data-testid="directory-companies">
              {count.format(counts.companies)}
            </dd>
          </div>
          <div className="flex flex-col-reverse justify-end rounded-2xl bg-primary/5 p-4">
            <dt className="text-sm text-muted">added this month</dt>
            <dd className="text-3xl font-bold" data-testid="directory-added-this-month">
              {count.format(counts.addedThisMonth)}
            </dd>
          </div>
        </dl>
        {counts.samples ? (
          <div className="mt-4">
            <SampleNotice />
          </div>
        ) : null}
        <ul className="mt-4 grid list-disc gap-2 pl-5">
          <li>Every company's description, website, what it sponsors and how to apply.</li>
          <li>Search the directory by name and by tag.</li>
          <li>The sponsors added most recently, as they arrive.</li>
          <li>Every plan unlocks the same things; only the billing differs.</li>
        </ul>
      </div>
      {preview ? <LockedCard preview={preview} /> : null}
    </section>
  );
}

/** Widths of the placeholder bars, so the locked facts read as text of different lengths. */
const BAR_WIDTHS = ["w-11/12", "w-2/3", "w-4/5", "w-1/2", "w-3/4", "w-3/5"];

function LockedCard({ preview }: { preview: LockedPreview }) {
  return (
    <article aria-labelledby="locked-preview-heading" className="rounded-2xl border border-ink/10 p-5 shadow-sm">
      <p className="text-sm font-semibold text-muted">A company as you see it now</p>
      <h3 id="locked-preview-heading" className="mt-1 break-words text-lg font-bold">
        {preview.name}
      </h3>
      {preview.tags.length ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
          {preview.tags.map((tag) => (
            <li key={tag} className="rounded-full bg-primary/5 px-3 py-1 text-sm">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-3 break-words">{preview.preview}</p>
      <dl className="mt-4 grid gap-3">
        {preview.locked.map((fact, i) => (
          <div key={fact.label}>
            <dt className="text-sm font-semibold">
              {fact.label}
              {fact.detail ? <span className="font-normal text-muted"> ({fact.detail})</span> : null}
            </dt>
            <dd className="mt-1 flex items-center gap-2">
              <span aria-hidden="true" className={`block h-3 rounded-full bg-ink/15 ${BAR_WIDTHS[i % BAR_WIDTHS.length]}`} />
              <span className="shrink-0 rounded-md border border-ink/20 px-2 py-0.5 text-xs font-semibold text-muted">Pro only</span>
            </dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
