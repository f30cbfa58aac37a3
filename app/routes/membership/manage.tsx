import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { readMemberPage, type MemberPage } from "#server/domains/memberships/member-page";
import { memberLinkKey, memberPath } from "#server/domains/memberships/member-link";
import { runMemberAction } from "#server/domains/memberships/member-actions";
import { CreatorFrame, themedButtonClass, themedButtonStyle } from "#app/components/payments/CreatorFrame";
import { FormNotice } from "#page-kit/forms";
import { formatIsoDate, formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_PER, MEMBERSHIP_STATUS_LABELS } from "#isomorphic/membership-limits";
import { DEFAULT_THEME } from "#isomorphic/bio-theme";
import { formText } from "#app/lib/identity.server";
import { readForm } from "#page-kit/form.server";
import { pageMeta } from "#page-kit/meta";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal, seeOther } from "#page-kit/respond.server";
import { memberActionDepsOf } from "./manage.server";
import type { Route } from "./+types/manage";

type LoaderData = { member: MemberPage | null; error: string | null; path: string; confirmCancel: boolean; cardReturn: boolean; bioOrigin: string; appName: string };

/**
 * A member's page (`/membership/<token>`, ADR 0084), open signed out: the signed link in every
 * mail is the permission. It shows the membership as it stands and a form for each change; a
 * link that is not valid (tampered, or replaced by newer links) is one 404 with one message.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const base = { path: memberPath(params.token), bioOrigin: context.config.BIO_ORIGIN, appName: context.config.APP_NAME };
  const read = await readMemberPage(context.db, memberLinkKey(context.sessionSecret), params.token);
  if (read.kind === "ERROR") return answerRefusal<LoaderData>(read, { ...base, member: null, error: read.message, confirmCancel: false, cardReturn: false });
  return { ...base, member: read.member, error: null, confirmCancel: search.get("confirm") === "cancel", cardReturn: search.get("card") === "updated" } satisfies LoaderData;
}

type ActionData = { error: string };

/** Each button is a form with its `intent`; the domain checks it and the link, and says what changed. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answerRefusal<ActionData>(read, { error: read.message });
  const { form } = read;
  const result = await runMemberAction(
    context.db,
    memberActionDepsOf(context),
    params.token,
    { intent: formText(form, "intent"), tierId: formText(form, "tierId"), interval: formText(form, "interval") },
    { publicOrigin: context.config.PUBLIC_ORIGIN },
  );
  if (result.kind === "ERROR") return answerRefusal<ActionData>(result, { error: result.message });
  // The provider's own card page: the only address off ours this page sends anyone to.
  if (result.outcome === "REDIRECT") throw seeOther(result.url);
  return redirectWithToast(request, context.sessionSecret, memberPath(params.token), { kind: "success", message: result.message });
}

// The token is a permission: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

/** The creator's look, not the marketing site's (app/root.tsx). */
export const handle = { siteChrome: false };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.member ? `Your membership of ${args.data.member.page.name}` : "Member link not valid", noindex: true });

const dayText = (date: Date) => formatIsoDate(date.toISOString().slice(0, 10));
const priceText = (amount: number, currency: string, interval: keyof typeof MEMBERSHIP_PER) => `${formatMoney(amount, currency)}${MEMBERSHIP_PER[interval]}`;

/** The page's second actions: outlined in the card's own ink, under the themed main one. */
const outlinedButton =
  "inline-flex min-h-12 w-full items-center justify-center rounded-full border-2 border-ink/40 px-6 py-3 text-center font-semibold text-ink no-underline hover:underline disabled:opacity-60 sm:w-auto";

export default function MemberPageRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { member, error, bioOrigin, appName } = loaderData;
  if (!member) {
    return (
      <CreatorFrame look={null} bioOrigin={bioOrigin} appName={appName}>
        <h1 className="text-2xl font-bold sm:text-3xl">Member link not valid</h1>
        <div className="mt-6">
          <FormNotice>{error}</FormNotice>
        </div>
        <p className="mt-6">
          <Link to="/app/account/memberships">My memberships (sign in)</Link>
        </p>
      </CreatorFrame>
    );
  }
  return (
    <CreatorFrame look={member.page.look} bioOrigin={bioOrigin} appName={appName}>
      <MemberView data={loaderData} member={member} error={actionData?.error ?? null} />
    </CreatorFrame>
  );
}

function MemberView({ data, member, error }: { data: LoaderData; member: MemberPage; error: string | null }) {
  const { path, confirmCancel, cardReturn } = data;
  const busy = useNavigation().state !== "idle";
  const theme = member.page.look?.theme ?? DEFAULT_THEME;
  const ended = !member.manageable;
  const cancelling = member.manageable && (member.cancelAtPeriodEnd || member.status === "cancelled");
  const periodEnd = member.currentPeriodEnd ? dayText(member.currentPeriodEnd) : null;
  const dateLine = ended
    ? member.endedAt
      ? { label: "Ended on", value: dayText(member.endedAt) }
      : null
    : periodEnd
      ? { label: cancelling ? "Ends on" : "Renews on", value: periodEnd }
      : null;
  const nextRenewal = periodEnd ? `your next renewal on ${periodEnd}` : "your next renewal";
  return (
    <>
      <p className="text-sm font-semibold text-muted">Your membership of {member.page.name}</p>
      <h1 className="mt-1 text-2xl font-bold break-words sm:text-3xl">{member.tier.name}</h1>
      <p className="mt-2">
        <span className="inline-block rounded-full bg-primary/10 px-3 py-0.5 text-sm font-semibold" data-testid="membership-status">
          {MEMBERSHIP_STATUS_LABELS[member.status]}
        </span>
      </p>

      {error ? (
        <div className="mt-5">
          <FormNotice>{error}</FormNotice>
        </div>
      ) : null}
      {member.pastDue ? (
        <div className="mt-5">
          <FormNotice>
            <p className="font-semibold">Payment failed — update your card</p>
            <p className="mt-1">Your last renewal didn't go through. You're still a member while it's retried: update your card and the payment is tried again with it.</p>
          </FormNotice>
        </div>
      ) : null}
      {cardReturn ? (
        <div className="mt-5">
          <FormNotice kind="info">Back from the card page. If you saved a new card, any failed renewal is retried with it; this page shows it once the payment provider confirms.</FormNotice>
        </div>
      ) : null}
      {cancelling && periodEnd ? (
        <div className="mt-5">
          <FormNotice kind="info">Cancelled: you stay a member until {periodEnd} and won't be charged again.</FormNotice>
        </div>
      ) : null}
      {member.cancelMessage ? (
        <figure className="mt-5 rounded-2xl bg-secondary/30 p-4">
          <blockquote className="whitespace-pre-line break-words">{member.cancelMessage}</blockquote>
          <figcaption className="mt-2 text-sm font-semibold text-muted">— {member.page.name}</figcaption>
        </figure>
      ) : null}

      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-muted">Amount</dt>
          <dd className="font-semibold">{priceText(member.amount, member.currency, member.interval)}</dd>
        </div>
        {dateLine ? (
          <div>
            <dt className="text-sm text-muted">{dateLine.label}</dt>
            <dd className="font-semibold" data-testid="membership-date">
              {dateLine.value}
            </dd>
          </div>
        ) : null}
      </dl>

      {member.tier.benefits.length > 0 ? (
        <section aria-labelledby="benefits-heading" className="mt-6">
          <h2 id="benefits-heading" className="text-lg font-bold">
            What you get
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-6">
            {member.tier.benefits.map((benefit) => (
              <li key={benefit} className="break-words">
                {benefit}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {member.manageable ? (
        <p className="mt-6">
          <a href={`${path}/posts`} className="font-semibold">
            Posts for members
          </a>
        </p>
      ) : null}

      {member.pastDue ? (
        <Form method="post" className="mt-6">
          <button type="submit" name="intent" value="update-card" disabled={busy} className={`${themedButtonClass} w-full sm:w-auto`} style={themedButtonStyle(theme)}>
            Update your card
          </button>
        </Form>
      ) : null}

      {member.resumable ? (
        <Form method="post" className="mt-6">
          <button type="submit" name="intent" value="resume" disabled={busy} className={`${themedButtonClass} w-full sm:w-auto`} style={themedButtonStyle(theme)}>
            Resume my membership
          </button>
        </Form>
      ) : null}

      {member.manageable && !cancelling ? (
        <ChangeSection title="Change your membership">
          <p className="text-sm text-muted">Changes apply from {nextRenewal}: a new tier starts now, its price from then. Nothing is charged today.</p>
          {member.switchableTiers.length > 0 ? (
            <ul className="mt-4 space-y-3">
              {member.switchableTiers.map((tier) => (
                <li key={tier.id} className="rounded-2xl border border-primary/15 p-4">
                  <p className="font-semibold break-words">
                    {tier.name} · {priceText(tier.price, member.currency, member.interval)}
                  </p>
                  {tier.benefits.length > 0 ? <p className="mt-1 text-sm break-words text-muted">{tier.benefits.join(" · ")}</p> : null}
                  <Form method="post" className="mt-3">
                    <input type="hidden" name="tierId" value={tier.id} />
                    <button type="submit" name="intent" value="change-tier" disabled={busy} className={outlinedButton}>
                      Switch to {tier.name}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          ) : null}
          {member.otherInterval ? (
            <Form method="post" className="mt-4">
              <input type="hidden" name="interval" value={member.otherInterval.interval} />
              <button type="submit" name="intent" value="switch-interval" disabled={busy} className={outlinedButton}>
                {member.otherInterval.interval === "year" ? "Pay yearly" : "Pay monthly"}: {priceText(member.otherInterval.price, member.currency, member.otherInterval.interval)}
              </button>
            </Form>
          ) : null}
          {!member.pastDue ? (
            <Form method="post" className="mt-4">
              <button type="submit" name="intent" value="update-card" disabled={busy} className={outlinedButton}>
                Update your card
              </button>
            </Form>
          ) : null}
          {confirmCancel ? (
            <section aria-labelledby="cancel-heading" className="mt-6 rounded-2xl border-2 border-red-700/40 p-4">
              <h3 id="cancel-heading" className="text-lg font-bold">
                Cancel your membership?
              </h3>
              <p className="mt-1">
                {periodEnd ? `You stay a member until ${periodEnd} and won't be charged again.` : "You stay a member until the end of the period you paid for and won't be charged again."} You can resume it any
                time before then.
              </p>
              <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
                <Form method="post">
                  <button type="submit" name="intent" value="cancel" disabled={busy} className={`${outlinedButton} border-red-700 text-red-800`}>
                    Yes, cancel my membership
                  </button>
                </Form>
                <Link to={path} className={outlinedButton}>
                  Keep my membership
                </Link>
              </div>
            </section>
          ) : (
            <p className="mt-4">
              <Link to={`${path}?confirm=cancel`} className={outlinedButton}>
                Cancel membership
              </Link>
            </p>
          )}
        </ChangeSection>
      ) : null}

      {ended ? (
        <p className="mt-6">
          {member.page.ending ? (
            <a href={`${data.bioOrigin}/${member.page.ending}`} className={`${themedButtonClass} w-full sm:w-auto`} style={themedButtonStyle(theme)}>
              Join {member.page.name} again
            </a>
          ) : null}
        </p>
      ) : null}

      <ChangeSection title="Your member link">
        <p className="text-sm">
          This page opens from the link in every email we send you about this membership{member.mailGoesTo ? ` (to ${member.mailGoesTo})` : ""}. Worried someone else has it? Ask for a
          new one: every earlier link stops working.
        </p>
        <p className="mt-3">
          <Link to={`${path}/new-links`} className={outlinedButton}>
            Send me a new link
          </Link>
        </p>
      </ChangeSection>
    </>
  );
}

function ChangeSection({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="mt-8 border-t border-primary/15 pt-6">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}
