/**
 * What a sponsor gets, drawn as the product shows it: a brief as creators see it in the
 * marketplace, and the deal's way from booking to payout (money held until the work is approved).
 * An example, labelled so; no figures from anyone's account.
 */
const DEAL_STEPS = ["You book and pay", "Creator makes it", "You approve the work", "Creator is paid"];

export function SponsorView() {
  return (
    <div className="mx-auto w-full max-w-md space-y-4">
      <div className="rounded-2xl border border-primary/15 bg-white p-5 shadow-md">
        <p className="text-xs font-semibold uppercase tracking-wide text-muted">Example brief</p>
        <p className="mt-1 text-lg font-bold">Review our travel headphones</p>
        <p className="mt-1 text-sm text-muted">One 60-second segment in a YouTube video, by the end of next month.</p>
        <div className="mt-3 flex flex-wrap gap-2 text-sm">
          <span className="rounded-full bg-secondary px-3 py-1 font-semibold text-ink">$450 budget</span>
          <span className="rounded-full bg-primary/10 px-3 py-1 font-semibold text-primary">YouTube sponsorship</span>
          <span className="rounded-full bg-primary/10 px-3 py-1 font-semibold text-primary">Tech</span>
        </div>
        <p className="mt-3 text-sm font-semibold">3 creators applied</p>
      </div>
      <ol className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="A deal, from booking to payout">
        {DEAL_STEPS.map((step, index) => (
          <li key={step} className="rounded-xl bg-white p-3 text-sm shadow-sm">
            <span className="block text-lg font-extrabold text-primary">{index + 1}</span>
            {step}
          </li>
        ))}
      </ol>
      <p className="text-sm text-muted">Your payment is held until you approve the work.</p>
    </div>
  );
}
