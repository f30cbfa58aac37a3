import { Link } from "react-router";
import { listOutbox } from "#server/platform/email/outbox";
import { mayReadMailbox } from "#server/platform/email/mailbox-access";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/dev-mailbox";

/** The outbox holds live sign-in and reset links: only this machine may see it; everyone else gets a plain 404. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!mayReadMailbox(context.config, context.clientIp, request.headers)) refuse("not-found");
  if (context.config.SMTP_URL) return { transport: "smtp" as const, messages: [] };

  const locale = localeFrom(request.headers.get("Accept-Language"));
  // Formatted here, in UTC, so the server and the hydrated page show the same text.
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
  const messages = (await listOutbox(context.db)).map(({ id, to, subject, createdAt }) => ({
    id,
    to,
    subject,
    receivedAt: createdAt.toISOString(),
    receivedText: `${format.format(createdAt)} UTC`,
  }));
  return { transport: "outbox" as const, messages };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Mailbox", noindex: true });

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { transport, messages } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">Mailbox</h1>
      {transport === "smtp" ? (
        <p className="mt-3 max-w-2xl text-lg text-muted">
          Mail is delivered over SMTP (SMTP_URL is set), so nothing is stored here. Check the inbox of the recipient instead.
        </p>
      ) : (
        <>
          <p className="mt-3 max-w-2xl text-lg text-muted">
            SMTP_URL is not set, so mail is kept here instead of being sent. Only requests from this machine can see this page.
          </p>
          <section aria-labelledby="mailbox-messages" className="mt-10">
            <h2 id="mailbox-messages" className="text-2xl font-bold">
              Received mail
            </h2>
            {messages.length === 0 ? (
              <p className="mt-4 text-muted">No mail yet. Sign up or ask for a password reset, then reload this page.</p>
            ) : (
              <div className="mt-6 overflow-x-auto">
                <table className="w-full border-collapse text-left">
                  <thead>
                    <tr className="border-b-2 border-primary/20">
                      <th scope="col" className="py-2 pr-4 font-semibold">Received</th>
                      <th scope="col" className="py-2 pr-4 font-semibold">To</th>
                      <th scope="col" className="py-2 font-semibold">Subject</th>
                    </tr>
                  </thead>
                  <tbody>
                    {messages.map((message) => (
                      <tr key={message.id} className="border-b border-primary/10 align-top">
                        <td className="py-3 pr-4 text-sm whitespace-nowrap text-muted">
                          <time dateTime={message.receivedAt}>{message.receivedText}</time>
                        </td>
                        <td className="py-3 pr-4 break-all">{message.to}</td>
                        <td className="py-3">
                          <Link to={`/dev/mailbox/${message.id}`} className="font-semibold">
                            {message.subject}
                          </Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}
