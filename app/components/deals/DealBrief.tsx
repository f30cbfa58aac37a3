import { Form } from "react-router";
import type { DealRoomFiles } from "#server/domains/deals/room-files";
import type { DealSide } from "#server/platform/db/schema";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { DEAL_FILE_ACCEPT, DEAL_FILE_MAX_TEXT, DEAL_FILE_TYPES_TEXT, DEAL_UPLOAD_MAX_TEXT, fileSizeText, MAX_BRIEF_FILES, MAX_BRIEF_TEXT } from "#isomorphic/deal-limits";
import { primaryButton, TextArea } from "#page-kit/forms";
import { DealFileList, DealFileField } from "./DealFiles";

type Props = {
  brief: DealRoomFiles["brief"];
  side: DealSide;
  names: Record<DealSide, string>;
  locale: string;
  /** Whether the sponsor may still write or change it (the deal is agreed or booked). */
  editable: boolean;
  refused: { brief: string; error?: string; files?: string } | null;
  busy: boolean;
};

/**
 * The sponsor's brief, above the work: what to make and how, and the assets to use. Plain text
 * shown with its line breaks (no address in it becomes a link); the sponsor's form to write it.
 */
export function DealBrief({ brief, side, names, locale, editable, refused, busy }: Props) {
  if (!brief && !editable) return null;
  const sponsor = side === "sponsor";
  return (
    <section aria-labelledby="brief-heading" className="mt-8 rounded-2xl border border-primary/15 p-6">
      <h2 id="brief-heading" className="text-xl font-bold">
        The brief
      </h2>
      {brief ? (
        <>
          <p className="mt-1 text-sm text-muted">
            From {sponsor ? "you" : names.sponsor}, last changed <LocalDateTime iso={brief.updatedAt} serverLocale={locale} />
          </p>
          {brief.body ? <p className="mt-3 whitespace-pre-line break-words">{brief.body}</p> : null}
          <DealFileList files={brief.files} label="The brief's files" />
        </>
      ) : (
        <p className="mt-2 text-muted">{sponsor ? `No brief yet. Tell ${names.creator} what to make and how, and attach your logo or guidelines.` : `${names.sponsor} has not written a brief yet. You will be told when they do.`}</p>
      )}
      {editable && sponsor ? (
        <details className="mt-4 rounded-lg border border-ink/10 p-4" open={refused !== null || !brief}>
          <summary className="cursor-pointer font-semibold">{brief ? "Change the brief" : "Write the brief"}</summary>
          <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4" preventScrollReset>
            <TextArea
              label="The brief"
              name="brief"
              id="brief-body"
              rows={8}
              maxLength={MAX_BRIEF_TEXT}
              defaultValue={refused?.brief ?? brief?.body}
              error={refused?.error}
              hint={`Plain text, up to ${MAX_BRIEF_TEXT.toLocaleString("en")} characters. ${names.creator} is told each time it changes.`}
            />
            {brief && brief.files.length > 0 ? (
              <fieldset>
                <legend className="font-medium">Remove files</legend>
                <ul className="mt-1 space-y-1">
                  {brief.files.map((file) => (
                    <li key={file.id}>
                      <label className="inline-flex items-center gap-2">
                        <input type="checkbox" name="remove" value={file.id} />
                        {file.name} <span className="text-sm text-muted">({fileSizeText(file.size)})</span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            ) : null}
            <DealFileField
              label="Add files (optional)"
              name="files"
              id="brief-files"
              accept={DEAL_FILE_ACCEPT}
              multiple
              hint={`${DEAL_FILE_TYPES_TEXT}, up to ${DEAL_FILE_MAX_TEXT} each and ${DEAL_UPLOAD_MAX_TEXT} in one save; a brief holds ${MAX_BRIEF_FILES} files.`}
              error={refused?.files}
            />
            <button type="submit" name="intent" value="brief" className={primaryButton} disabled={busy}>
              {busy ? "Saving..." : "Save the brief"}
            </button>
          </Form>
        </details>
      ) : null}
    </section>
  );
}
