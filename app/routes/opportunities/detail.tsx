import { Form, Link, useNavigation } from "react-router";
import { getSessionUser, requireVerifiedUser } from "#server/domains/auth/session";
import { listHref } from "#isomorphic/opportunity-links";
import { reportPath } from "#isomorphic/report-reasons";
import { deleteOwnOpportunity } from "#server/features/operations/opportunities/delete";
import { readOpportunity } from "#server/features/operations/opportunities/read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { contributionText } from "#isomorphic/contribution-text";
import { HeartButton, HeartForm } from "#app/components/opportunities/HeartButton";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { formText } from "#app/lib/identity.server";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { Route } from "./+types/detail";
import { refuse, refuseWith, requireForm } from "#page-kit/respond.server";
import { ownPostRefusal } from "./own-post.server";
import { dealsOnOpportunity } from "#server/domains/deals/read";
import { openDealPath } from "#isomorphic/deal-limits";
import { DealStateBadge } from "#app/components/deals/DealStateBadge";
import { formatMoney } from "#isomorphic/format";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getSessionUser(request, context);
  const { post } = await runForPage(readOpportunity, { caller: pageCaller(viewer), input: { opportunityId: params.docId }, context });
  const isOwner = viewer?.id === post.posterUid;
  return {
    post,
    isOwner,
    signedIn: viewer !== null,
    // The poster's inbox: every application or offer on the post.
    inbox: isOwner ? await dealsOnOpportunity(context.db, viewer.id, post.id) : null,
    open: !post.applicationDeadline || new Date(post.applicationDeadline) > new Date(),
    confirmDelete: new URL(request.url).searchParams.get("delete") === "confirm",
    locale: localeFrom(request.headers.get("Accept-Language")),
    appName: context.config.APP_NAME,
    supportEmail: context.config.SUPPORT_EMAIL,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  if (formText(form, "intent") !== "delete") refuse("invalid-argument", "Unknown action");
  const result = await runForPage(deleteOwnOpportunity, { caller: pageCaller(user), input: { opportunityId: params.docId }, context, notFound: "answer" });
  if (result.kind === "ERROR") refuseWith(result.code === "not-found" ? ownPostRefusal(result) : result);
  return redirectWithToast(request, context.sessionSecret, "/app/account/opportunities", {
    kind: "success",
    message: "Your opportunity was deleted.",
  });
}

export const meta: Route.MetaFunction = (args) =>
  args.data ? pageMeta(args, { title: args.data.post.title, description: args.data.post.description.slice(0, 155) }) : [];

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

export default function OpportunityDetail({ loaderData }: Route.ComponentProps) {
  const { post, isOwner, signedIn, inbox, open, confirmDelete, locale, appName, supportEmail } = loaderData;
  const deleting = useNavigation().formData?.get("intent") === "delete";
  return (
    <article className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <Link to="/app/opportunities" className="text-sm font-semibold">
        ← All opportunities
      </Link>
      <div className="mt-4 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold leading-tight">{post.title}</h1>
          {post.organization ? <p className="mt-1 text-lg text-muted">{post.organization}</p> : null}
        </div>
        <HeartButton postId={post.id} liked={post.liked} totalHearts={post.totalHearts} title={post.title} />
        <HeartForm />
      </div>

      {post.removedReason !== null ? (
        <div className="mt-6">
          <FormNotice>
            <p className="font-semibold">Removed by our team</p>
            <p className="mt-1">{`Only you can see this opportunity. Reason: ${post.removedReason}`}</p>
            <p className="mt-1">
              If you think we got it wrong, email {supportEmail} within 30 days with “Appeal” in the subject line (see our <Link to="/support/reporting">Reporting Guidelines</Link>).
            </p>
          </FormNotice>
        </div>
      ) : null}
      {isOwner ? (
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to={`/app/opportunities/edit?docId=${post.id}`} className={`${secondaryButton} no-underline`}>
            Edit
          </Link>
          {confirmDelete ? null : (
            <Link to="?delete=confirm" className={`${secondaryButton} no-underline`} preventScrollReset>
              Delete
            </Link>
          )}
        </div>
      ) : null}
      {isOwner && confirmDelete ? (
        <div className="mt-4">
          <FormNotice>
            <p className="font-semibold">Delete this opportunity?</p>
            <p className="mt-1">It disappears for everyone, along with every heart on it. This can't be undone.</p>
            <Form method="post" className="mt-3 flex flex-wrap gap-3">
              <button type="submit" name="intent" value="delete" className={primaryButton} disabled={deleting}>
                {deleting ? "Deleting..." : "Yes, delete it"}
              </button>
              <Link to="." className={`${secondaryButton} no-underline`}>
                Cancel
              </Link>
            </Form>
          </FormNotice>
        </div>
      ) : null}

      <dl className="mt-8 grid grid-cols-1 gap-4 rounded-2xl border border-primary/15 p-6 sm:grid-cols-2">
        <Fact label="Contribution">{contributionText(post.minContributionCents, post.currency, appName, locale)}</Fact>
        <Fact label="Deadline">
          {post.applicationDeadline ? (
            <LocalDateTime iso={post.applicationDeadline} timeZone={post.applicationDeadlineTimeZone} withReaderTime serverLocale={locale} />
          ) : (
            "No deadline"
          )}
        </Fact>
        <Fact label="How it works">{post.kind === "brief" ? "A sponsor's brief: creators apply" : "A creator's request: sponsors make offers"}</Fact>
        <Fact label="Posted by">{post.posterName || "A member"}</Fact>
        <Fact label="Posted">
          <LocalDateTime iso={post.datePosted} serverLocale={locale} />
        </Fact>
      </dl>

      {inbox ? <Inbox items={inbox} kind={post.kind} /> : null}
      {!isOwner && post.removedReason === null ? <DealDoor postId={post.id} kind={post.kind} signedIn={signedIn} open={open} /> : null}

      <section aria-labelledby="about-heading" className="mt-8">
        <h2 id="about-heading" className="text-xl font-bold">
          About this opportunity
        </h2>
        <p className="mt-3 whitespace-pre-line">{post.description}</p>
        {post.bullets.length ? (
          <ul className="mt-4 list-disc space-y-1 pl-6">
            {post.bullets.map((bullet, index) => (
              <li key={index}>{bullet}</li>
            ))}
          </ul>
        ) : null}
        {post.tags.length ? (
          <ul className="mt-6 flex flex-wrap gap-2" aria-label="Tags">
            {post.tags.map((tag) => (
              <li key={tag}>
                <Link to={listHref([tag])} className="rounded-full bg-secondary/60 px-3 py-1 text-sm text-ink no-underline">
                  {tag}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="contact-heading" className="mt-8 rounded-2xl bg-primary/5 p-6">
        <h2 id="contact-heading" className="text-xl font-bold">
          Contact
        </h2>
        <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          {post.website ? (
            <Fact label="Website">
              <a href={post.website} rel="noopener noreferrer nofollow ugc" target="_blank">
                {post.website}
              </a>
            </Fact>
          ) : null}
          {post.contactName ? <Fact label="Name">{post.contactName}</Fact> : null}
          {post.contactEmail ? (
            <Fact label="Email">
              <a href={`mailto:${post.contactEmail}`}>{post.contactEmail}</a>
            </Fact>
          ) : null}
          {post.contactPhone ? (
            <Fact label="Phone">
              <a href={`tel:${post.contactPhone.replace(/[^+\d]/g, "")}`}>{post.contactPhone}</a>
            </Fact>
          ) : null}
        </dl>
        {!post.website && !post.contactName && !post.contactEmail && !post.contactPhone ? (
          <p className="mt-2 text-muted">The poster left no contact details.</p>
        ) : null}
      </section>
      {isOwner ? null : (
        <p className="mt-8 text-sm">
          <Link to={reportPath("opportunity", post.id)} className="text-muted">
            Report this opportunity
          </Link>
        </p>
      )}
    </article>
  );
}

/** The way into a deal for everyone but the poster: apply to a brief, or make an offer on a request. */
function DealDoor({ postId, kind, signedIn, open }: { postId: string; kind: "brief" | "request"; signedIn: boolean; open: boolean }) {
  const path = openDealPath(postId, kind);
  const label = kind === "brief" ? "Apply" : "Make an offer";
  return (
    <div className="mt-6 flex flex-wrap items-center gap-3 rounded-2xl bg-primary/5 p-4">
      {open ? (
        <Link to={signedIn ? path : `/signin?redirectTo=${encodeURIComponent(path)}`} className={`${primaryButton} no-underline`}>
          {label}
        </Link>
      ) : (
        <span className="font-semibold">The deadline has passed.</span>
      )}
      <span className="text-sm text-muted">
        {kind === "brief" ? "Send a pitch with your price and what you would make. Paid through us: the sponsor's money is held until your work is approved." : "Send terms with your price. You pay only once the creator agrees, and your money is held until the work is approved."}
      </span>
    </div>
  );
}

type InboxItems = NonNullable<Route.ComponentProps["loaderData"]["inbox"]>;

/** The poster's applications or offers on this post, shortlisted first. */
function Inbox({ items, kind }: { items: InboxItems; kind: "brief" | "request" }) {
  const noun = kind === "brief" ? "Applications" : "Offers";
  return (
    <section aria-labelledby="inbox-heading" className="mt-8 rounded-2xl border border-primary/15 p-6">
      <h2 id="inbox-heading" className="text-xl font-bold">
        {noun} ({items.length})
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-muted">{kind === "brief" ? "No applications yet. Creators who apply show here with their pitch and price." : "No offers yet. Sponsors who make one show here with their terms."}</p>
      ) : (
        <ul className="mt-4 divide-y divide-ink/10">
          {items.map((item) => (
            <li key={item.id}>
              <Link to={`/app/deals/${item.id}`} className="flex flex-wrap items-start justify-between gap-3 py-3 text-ink no-underline hover:bg-secondary/30">
                <span className="min-w-0">
                  <span className="block font-semibold">
                    {item.shortlisted ? "★ " : ""}
                    {item.otherName} · {formatMoney(item.price, item.currency)}
                  </span>
                  <span className="line-clamp-2 block text-sm text-muted">{item.pitch}</span>
                </span>
                <DealStateBadge state={item.state} waitingOnYou={item.waitingOnYou} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
