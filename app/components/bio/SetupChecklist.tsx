import type { ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import type { Blocker, SetupStep } from "#server/domains/bio/readiness";
import { secondaryButton } from "#page-kit/forms";
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

/** Where the checklist lives (Your Pages): every step's way out comes back here. */
export const CHECKLIST_PATH = "/app/account/bizbio";
/** The step's own address with the way back to the checklist, as each step's page reads it. */
const back = (path: string, param: "next" | "returnTo") => `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams([[param, CHECKLIST_PATH]])}`;
/** The owner's record of a copy from the checklist (app/routes/bio/link-copied.ts). */
export const linkCopiedPath = (pageId: string) => `/app/account/bizbio/${pageId}/link-copied`;

export type ChecklistProps = {
  page: { id: string; name: string };
  done: Record<SetupStep, boolean>;
  doneCount: number;
  ownerActive: boolean;
  address: string;
  qrSvg: string;
};

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

/** Ways to share the address, each a plain link (no script, no tracker): the share sites' own forms. */
function shareLinks(address: string, name: string) {
  const text = `Support ${name} and find all my links here`;
  return [
    { label: "Share on X", href: `https://x.com/intent/post?${new URLSearchParams({ text, url: address })}` },
    { label: "Share on Facebook", href: `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: address })}` },
    { label: "Share on WhatsApp", href: `https://wa.me/?${new URLSearchParams({ text: `${text}: ${address}` })}` },
    { label: "Share by email", href: `mailto:?${new URLSearchParams({ subject: text, body: address }).toString().replaceAll("+", "%20")}` },
  ];
}

/**
 * The setup checklist of a new creator's page (server/domains/bio/readiness.ts SETUP_STEPS): a
 * photo, a theme, payouts, tips, the link copied and the first share. It stays until every step is
 * done, ticking each as it is; every step's page brings the person back here (`next`/`returnTo`,
 * and the editor's saves return to Your Pages). Copying from here ticks "Copy your link" (with
 * JavaScript on the copy itself, without it by the button beside); the first counted visitor ticks
 * "Share it".
 */
export function SetupChecklist({ page, done, doneCount, ownerActive, address, qrSvg }: ChecklistProps) {
  const copied = useFetcher();
  const shown = address.replace(/^https?:\/\//, "");
  const link = "font-semibold";
  const markCopied = () => {
    if (!done.copy) void copied.submit({}, { method: "post", action: linkCopiedPath(page.id) });
  };
  const copyDone = done.copy || copied.state !== "idle" || copied.data !== undefined;
  return (
    <section aria-labelledby="setup-heading" className="rounded-2xl border-2 border-primary/30 bg-primary/5 p-5 sm:p-6">
      <h2 id="setup-heading" className="text-xl font-bold">
        Set up your page
      </h2>
      <p className="mt-1 text-muted">
        <span className="font-semibold text-ink">{page.name}</span>: {doneCount} of 6 steps done. Each step brings you back here.
      </p>
      {!ownerActive ? (
        <p role="status" className="mt-3 font-semibold text-red-800">
          Your account is disabled, so your pages are hidden and take no payments. <Link to="/support">Contact support</Link>.
        </p>
      ) : null}
      <ol className="mt-4 space-y-4">
        <Step number={1} title="Add a photo" done={done.photo}>
          {done.photo ? (
            <>Your photo is on your page. <Link to={back("/app/account/photo", "returnTo")}>Change photo</Link></>
          ) : (
            <>
              Fans trust a face.{" "}
              <Link to={back("/app/account/photo", "returnTo")} className={link}>
                Add a photo
              </Link>
            </>
          )}
        </Step>
        <Step number={2} title="Choose a theme" done={done.theme}>
          {done.theme ? (
            <>Your page has its own colours. <Link to={`/edit/${page.id}#look`}>Change theme</Link></>
          ) : (
            <>
              Pick colours and a font that look like you.{" "}
              <Link to={`/edit/${page.id}#look`} className={link}>
                Choose a theme
              </Link>
            </>
          )}
        </Step>
        <Step number={3} title="Connect payouts" done={done.payouts}>
          {done.payouts ? (
            "Your payout account is connected: tips go to your bank."
          ) : (
            <>
              Tell the payment provider where to send your money.{" "}
              <Link to={back(PAYOUTS_SETUP_PATH, "next")} className={link}>
                Connect payouts
              </Link>
            </>
          )}
        </Step>
        <Step number={4} title="Turn on tips" done={done.tips}>
          {done.tips ? (
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
        <Step number={5} title="Copy your link" done={copyDone}>
          <p>Put it in your bio, your videos and your posts, or print the QR code. It opens {shown}.</p>
          <div className="mt-3 flex flex-wrap items-start gap-4">
            <div className="min-w-0 flex-1 basis-64">
              <CopyLink address={address} label={`Address of ${page.name}`} onCopied={markCopied} />
              {copyDone ? null : (
                <copied.Form method="post" action={linkCopiedPath(page.id)} className="mt-2">
                  <button type="submit" className={secondaryButton}>
                    I've copied it
                  </button>
                </copied.Form>
              )}
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
        <Step number={6} title="Share it" done={done.share}>
          <p>{done.share ? "Your page has had its first visitor." : "Post your link where your fans are. This is ticked when your page has its first visitor."}</p>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1" aria-label={`Share ${page.name}`}>
            {shareLinks(address, page.name).map((share) => (
              <li key={share.label}>
                <a href={share.href} target="_blank" rel="noopener noreferrer">
                  {share.label}
                </a>
              </li>
            ))}
          </ul>
        </Step>
      </ol>
    </section>
  );
}
