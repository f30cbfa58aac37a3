import { Link } from "react-router";
import { getOutboxMessage } from "#server/platform/email/outbox";
import { mayReadMailbox } from "#server/platform/email/mailbox-access";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/dev-mailbox-message";

/** Only this machine may read stored mail (it holds live links); everyone else, and unknown ids, get a 404. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!mayReadMailbox(context.config, context.clientIp, request.headers)) refuse("not-found");
  const message = await getOutboxMessage(context.db, params.id);
  if (!message) refuse("not-found");

  const locale = localeFrom(request.headers.get("Accept-Language"));
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
  const link = message.meta.url;
  return {
    subject: message.subject,
    to: message.to,
    from: message.from,
    receivedAt: message.createdAt.toISOString(),
    receivedText: `${format.format(message.createdAt)} UTC`,
    // Rendered as a real link, so only web addresses qualify (never javascript: and the like).
    link: link && /^https?:\/\//i.test(link) ? link : null,
    text: message.text,
    html: message.html,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Mailbox", noindex: true });

export default function DevMailboxMessage({ loaderData }: Route.ComponentProps) {
  const { subject, to, from, receivedAt, receivedText, link, text, html } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:py-16">
      <p className="text-sm">
        <Link to="/dev/mailbox">Back to the mailbox</Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold break-words sm:text-4xl">{subject}</h1>
      <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        <dt className="font-semibold">To</dt>
        <dd className="break-all">{to}</dd>
        <dt className="font-semibold">From</dt>
        <dd className="break-all">{from}</dd>
        <dt className="font-semibold">Received</dt>
        <dd>
          <time dateTime={receivedAt}>{receivedText}</time>
        </dd>
      </dl>

      {link ? (
        <section aria-labelledby="mail-link" className="mt-10 rounded-2xl bg-secondary/30 p-6">
          <h2 id="mail-link" className="text-2xl font-bold">
            Link
          </h2>
          <p className="mt-3">
            <a href={link} className="inline-block rounded-lg bg-primary px-5 py-3 font-semibold text-white no-underline hover:bg-primary-dark">
              Open the link in this email
            </a>
          </p>
          <p className="mt-3 text-sm break-all text-muted">
            <code>{link}</code>
          </p>
        </section>
      ) : null}

      <section aria-labelledby="mail-text" className="mt-10">
        <h2 id="mail-text" className="text-2xl font-bold">
          Plain text
        </h2>
        <pre className="mt-4 overflow-x-auto rounded-2xl border border-primary/15 bg-[#f6f3fa] p-4 text-sm whitespace-pre-wrap">{text}</pre>
      </section>

      <section aria-labelledby="mail-html" className="mt-10">
        <h2 id="mail-html" className="text-2xl font-bold">
          HTML
        </h2>
        {/* An empty sandbox: the mail's markup runs no scripts, cannot reach this page and opens nothing. */}
        <iframe
          sandbox=""
          srcDoc={html}
          title={`HTML version of “${subject}”`}
          className="mt-4 h-[40rem] w-full rounded-2xl border border-primary/15 bg-white"
        />
      </section>
    </div>
  );
}
