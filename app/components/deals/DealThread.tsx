import { Form } from "react-router";
import type { DealMessage } from "#server/domains/deals/thread";
import type { DealSide } from "#server/platform/db/schema";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { MAX_MESSAGE_TEXT } from "#isomorphic/deal-limits";
import { primaryButton, TextArea } from "#page-kit/forms";

type Props = {
  messages: DealMessage[];
  /** The first message the reader had not read when the page loaded, or null. */
  firstUnread: number | null;
  side: DealSide;
  names: Record<DealSide, string>;
  locale: string;
  refused: { body: string; error?: string } | null;
  busy: boolean;
};

/** The deal's thread, oldest first, with where the new messages begin, and the box to write in. */
export function DealThread({ messages, firstUnread, side, names, locale, refused, busy }: Props) {
  return (
    <section aria-labelledby="thread-heading" className="mt-8">
      <h2 id="thread-heading" className="text-xl font-bold">
        Messages
      </h2>
      {messages.length === 0 ? (
        <p className="mt-2 text-muted">No messages yet. Ask a question, share a brief or agree the details here; both of you see the whole thread.</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {messages.map((message) => {
            const mine = message.side === side;
            return (
              <li key={message.seq} id={`message-${message.seq}`} className={`max-w-[85%] rounded-2xl p-3 ${mine ? "ml-auto bg-primary/10" : "bg-secondary/40"}`}>
                {message.seq === firstUnread ? <p className="mb-1 text-xs font-bold uppercase text-amber-900">New</p> : null}
                <p className="text-sm font-semibold">
                  {mine ? "You" : names[message.side]} · <LocalDateTime iso={message.at} serverLocale={locale} />
                </p>
                <p className="mt-1 whitespace-pre-line break-words">{message.body}</p>
              </li>
            );
          })}
        </ol>
      )}
      <Form method="post" className="mt-4 space-y-3" preventScrollReset>
        <TextArea label="Write a message" name="body" rows={3} maxLength={MAX_MESSAGE_TEXT} defaultValue={refused?.body} error={refused?.error} />
        <button type="submit" name="intent" value="message" className={primaryButton} disabled={busy}>
          {busy ? "Sending..." : "Send message"}
        </button>
      </Form>
    </section>
  );
}
