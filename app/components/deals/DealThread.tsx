import { Form } from "react-router";
import type { DealMessage } from "#server/domains/deals/news";
import type { DealSide } from "#server/platform/db/schema";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import type { DealFileView } from "#server/domains/deals/files";
import { DEAL_FILE_ACCEPT, DEAL_FILE_MAX_TEXT, DEAL_FILE_TYPES_TEXT, MAX_MESSAGE_FILES, MAX_MESSAGE_TEXT } from "#isomorphic/deal-limits";
import { primaryButton, TextArea } from "#page-kit/forms";
import { DealFileField, DealFileList } from "./DealFiles";

type Props = {
  messages: DealMessage[];
  /** Each message's files, by its number. */
  files: Record<number, DealFileView[]>;
  /** The first message the reader had not read when the page loaded, or null. */
  firstUnread: number | null;
  side: DealSide;
  names: Record<DealSide, string>;
  locale: string;
  refused: { body: string; error?: string; files?: string } | null;
  busy: boolean;
};

/** The deal's thread, oldest first, with where the new messages begin, and the box to write in. */
export function DealThread({ messages, files, firstUnread, side, names, locale, refused, busy }: Props) {
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
                {message.body ? <p className="mt-1 whitespace-pre-line break-words">{message.body}</p> : null}
                <DealFileList files={files[message.seq] ?? []} label={`Files sent by ${mine ? "you" : names[message.side]}`} />
              </li>
            );
          })}
        </ol>
      )}
      <Form method="post" encType="multipart/form-data" className="mt-4 space-y-3" preventScrollReset>
        <TextArea label="Write a message" name="body" rows={3} maxLength={MAX_MESSAGE_TEXT} defaultValue={refused?.body} error={refused?.error} />
        <DealFileField
          label="Attach files (optional)"
          name="files"
          id="message-files"
          accept={DEAL_FILE_ACCEPT}
          multiple
          hint={`Up to ${MAX_MESSAGE_FILES} files: ${DEAL_FILE_TYPES_TEXT}, ${DEAL_FILE_MAX_TEXT} each.`}
          error={refused?.files}
        />
        <button type="submit" name="intent" value="message" className={primaryButton} disabled={busy}>
          {busy ? "Sending..." : "Send message"}
        </button>
      </Form>
    </section>
  );
}
