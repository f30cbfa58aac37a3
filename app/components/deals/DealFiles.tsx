import type { DealFileView } from "#server/domains/deals/files";
import { fileSizeText } from "#isomorphic/deal-limits";
import { TextField } from "#page-kit/forms";

const THUMB_BOX = 160;

/** The size an image's thumbnail is drawn at, within THUMB_BOX square, so the page does not jump as it loads. */
function thumbSize(file: DealFileView): { width: number; height: number } {
  const width = file.width ?? THUMB_BOX;
  const height = file.height ?? THUMB_BOX;
  const scale = Math.min(1, THUMB_BOX / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A deal's files where they were shared: images as thumbnails that open the full image, PDFs as
 * chips with their name and size that download. Nothing of a file is drawn by the page but the
 * server's re-encoded thumbnail.
 */
export function DealFileList({ files, label }: { files: DealFileView[]; label: string }) {
  if (files.length === 0) return null;
  const images = files.filter((file) => file.kind === "image");
  const pdfs = files.filter((file) => file.kind === "pdf");
  return (
    <div className="mt-2 space-y-2" aria-label={label} role="group">
      {images.length > 0 ? (
        <ul className="flex flex-wrap gap-2">
          {images.map((file) => (
            <li key={file.id}>
              <a href={file.url} target="_blank" rel="noopener" className="block rounded-lg border border-ink/15 bg-white p-1" title={`${file.name} (${fileSizeText(file.size)})`}>
                <img src={file.thumbUrl ?? file.url} alt={file.name} loading="lazy" decoding="async" {...thumbSize(file)} className="block max-w-full rounded object-contain" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {pdfs.length > 0 ? (
        <ul className="flex flex-wrap gap-2">
          {pdfs.map((file) => (
            <li key={file.id}>
              <a href={file.url} download={file.name} className="inline-flex max-w-full items-center gap-2 rounded-full border border-ink/20 bg-white px-3 py-1.5 text-sm no-underline">
                <span aria-hidden="true" className="rounded bg-red-700 px-1 text-xs font-bold text-white">
                  PDF
                </span>
                <span className="truncate font-semibold">{file.name}</span>
                <span className="shrink-0 text-muted">{fileSizeText(file.size)}</span>
                <span className="sr-only">, PDF, downloads</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A file picker of the deal room: its label, what it takes, and why the last files were refused. */
export function DealFileField({ label, name, id, accept, multiple, hint, error }: { label: string; name: string; id: string; accept: string; multiple: boolean; hint: string; error?: string }) {
  return (
    <TextField
      label={label}
      name={name}
      id={id}
      type="file"
      accept={accept}
      multiple={multiple}
      hint={hint}
      error={error}
      className="[&_input]:text-sm [&_input]:file:mr-3 [&_input]:file:rounded-full [&_input]:file:border [&_input]:file:border-primary [&_input]:file:bg-white [&_input]:file:px-4 [&_input]:file:py-1.5 [&_input]:file:font-semibold [&_input]:file:text-primary"
    />
  );
}
