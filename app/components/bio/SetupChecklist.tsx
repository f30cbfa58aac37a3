import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Blocker, PageReadiness } from "#server/domains/bio/readiness";
import { CopyLink } from "./CopyLink";
import { QrCode } from "./QrCode";

/** SPEC §2.2's Payments setup. */
export const PAYOUTS_SETUP_PATH = "/app/payments/setup";
/** The editor's support settings (the form with intent=support on the edit page). */
export const tipSettingsPath = (pageId: string) => `/edit/${pageId}#support`;

/** What a page row says it needs next, in the words of the checklist's steps. */
export const BLOCKER_TEXT: Record<Blocker, string> = {
  "owner-disabled": "your account is disabled",
  payouts: "connect payouts",
  tips: "turn on tips",
};

export const blockerPath = (blocker: Blocker, pageId: string) => (blocker === "payouts" ? PAYOUTS_SETUP_PATH : blocker === "tips" ? tipSettingsPath(pageId) : "/support");

export type ChecklistReadiness = Pick<PageReadiness, "payoutsConnected" | "tipsOn" | "ownerActive">;

function Step({ number, title, done, children }: { number: number; title: string; done: boolean; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        aria-hidden="true"
        className={`grid h-8 w-8 shrink-0 place-items-center rounded-full text-sm font-bold ${done ? "bg-primary text-white" : "border-2 border-primary text-primary"}`}
      >
        {done ? "✓" : number}
      </span>
      <div className="min-w-0 flex-1">
        <h3 className="font-bold">
          {title}{" "}
          <span className={done ? "ml-1 rounded-full bg-secondary px-2 py-0.5 text-xs font-semibold text-ink" : "sr-only"}>{done ? "Done" : "(to do)"}</span>
        </h3>
        <div className="mt-1 text-sm text-muted">{children}</div>
      </div>
    </li>
  );
}

/**
 * The three steps to a page that takes money (docs/decisions/0036-creator-home.md):
 * payouts, tips, then the link to share. Shown until the page can take money;
 * steps already done are ticked. The third is never "done": sharing is always
 * there to do, and it does not decide whether money can come in.
 */
export function SetupChecklist({ page, readiness, address, qrSvg }: { page: { id: string; name: string }; readiness: ChecklistReadiness; address: string; qrSvg: string }) {
  const shown = address.replace(/^https?:\/\//, "");
  const link = "font-semibold";
  return (
    <section aria-labelledby="setup-heading" className="rounded-2xl border-2 border-primary/30 bg-primary/5 p-5 sm:p-6">
      <h2 id="setup-heading" className="text-xl font-bold">
        Get ready to take tips
      </h2>
      <p className="mt-1 text-muted">
        <span className="font-semibold text-ink">{page.name}</span> can't take money yet. Three steps:
      </p>
      {!readiness.ownerActive ? (
        <p role="status" className="mt-3 font-semibold text-red-800">
          Your account is disabled, so your pages are hidden and take no payments. <Link to="/support">Contact support</Link>.
        </p>
      ) : null}
      <ol className="mt-4 space-y-4">
        <Step number={1} title="Connect payouts" done={readiness.payoutsConnected}>
          {readiness.payoutsConnected ? (
            "Your payout account is connected: tips go to your bank."
          ) : (
            <>
              Tell the payment provider where to send your money.{" "}
              <Link to={PAYOUTS_SETUP_PATH} className={link}>
                Connect payouts
              </Link>
            </>
          )}
        </Step>
        <Step number={2} title="Turn on tips" done={readiness.tipsOn}>
          {readiness.tipsOn ? (
            <>
              Your page shows “Support {page.name}” with tip amounts. <Link to={tipSettingsPath(page.id)}>Tip settings</Link>
            </>
          ) : (
            <>
              Tips are off on this page.{" "}
              <Link to={tipSettingsPath(page.id)} className={link}>
                Turn on tips
              </Link>
            </>
          )}
        </Step>
        <Step number={3} title="Copy your link" done={false}>
          <p>Put it in your bio, your videos and your posts, or print the QR code. It opens {shown}.</p>
          <div className="mt-3 flex flex-wrap items-start gap-4">
            <div className="min-w-0 flex-1 basis-64">
              <CopyLink address={address} label={`Address of ${page.name}`} />
              <p className="mt-2">
                <a href={`/app/account/bizbio/${page.id}/qr.png`} download>
                  Download the QR code
                </a>
              </p>
            </div>
            <div className="w-28">
              <QrCode svg={qrSvg} address={address} />
            </div>
          </div>
        </Step>
      </ol>
    </section>
  );
}
