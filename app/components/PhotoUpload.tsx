import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Avatar } from "#app/components/Avatar";
import { PHOTO_ACCEPT, PHOTO_ACTION, PHOTO_FIELD, PHOTO_MAX_BYTES, PHOTO_MAX_TEXT, PHOTO_TYPES_TEXT } from "#isomorphic/photo-upload";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";

/** What the photo action answers a refused upload with (app/routes/app/photo.tsx). */
export type PhotoActionData = { error: string };

/**
 * The person's profile photo: one for all their pages. A plain multipart form
 * to PHOTO_ACTION, so it works without JavaScript (the page comes back with
 * the new photo, or with the reason it was refused); with JavaScript the
 * chosen file is previewed, checked for size before it is sent, and the
 * button says while it uploads.
 */
export function PhotoUpload({ name, photoId, returnTo, error }: { name: string; photoId: string | null; returnTo: string; error?: string }) {
  const upload = useFetcher<PhotoActionData>();
  const remove = useFetcher<PhotoActionData>();
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  // A saved photo comes back as the page's own: the preview and the chosen file are done with.
  const [previewFor, setPreviewFor] = useState(photoId);
  if (previewFor !== photoId) {
    setPreviewFor(photoId);
    setPreview(null);
  }
  // Only a change of photo clears the picker: a file chosen before the page finished loading stays chosen.
  const clearedFor = useRef(photoId);
  useEffect(() => {
    if (clearedFor.current === photoId) return;
    clearedFor.current = photoId;
    if (input.current) input.current.value = "";
  }, [photoId]);
  // The address carries where to come back to, so a refused upload's page (no JavaScript) still knows it.
  const action = `${PHOTO_ACTION}?${new URLSearchParams({ returnTo })}`;

  const uploading = upload.state !== "idle";
  const removing = remove.state !== "idle";
  const shownError = localError ?? upload.data?.error ?? remove.data?.error ?? error ?? null;

  const chosen = (file: File | undefined) => {
    setLocalError(null);
    setPreview(file ? URL.createObjectURL(file) : null);
    if (file && file.size > PHOTO_MAX_BYTES) setLocalError(`That file is larger than ${PHOTO_MAX_TEXT}. Choose a smaller photo, or export it at a smaller size.`);
  };

  return (
    <div className="flex flex-wrap items-start gap-5">
      {preview ? (
        <img src={preview} alt="Preview of the chosen photo" width={96} height={96} className="h-24 w-24 rounded-full object-cover" />
      ) : (
        <Avatar name={name} photoId={photoId} size={96} />
      )}
      <div className="min-w-0 flex-1 space-y-3">
        <upload.Form
          method="post"
          action={action}
          encType="multipart/form-data"
          className="space-y-3"
          onSubmit={(event) => {
            const file = input.current?.files?.[0];
            if (!file) {
              event.preventDefault();
              setLocalError("Choose a photo to upload.");
            } else if (file.size > PHOTO_MAX_BYTES) event.preventDefault();
          }}
        >
          <label htmlFor={inputId} className="block font-medium">
            Profile photo
          </label>
          <input
            ref={input}
            id={inputId}
            type="file"
            name={PHOTO_FIELD}
            accept={PHOTO_ACCEPT}
            aria-describedby={hintId}
            aria-invalid={shownError ? true : undefined}
            onChange={(event) => chosen(event.currentTarget.files?.[0])}
            className="block w-full max-w-sm text-sm file:mr-3 file:rounded-full file:border file:border-primary file:bg-white file:px-4 file:py-2 file:font-semibold file:text-primary"
          />
          <p id={hintId} className="text-sm text-muted">
            {PHOTO_TYPES_TEXT}, up to {PHOTO_MAX_TEXT}. Cropped to a square; shown on all your bio pages and beside your name on the site. Location and
            camera details are removed.
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={primaryButton} disabled={uploading || removing}>
              {uploading ? "Uploading…" : photoId ? "Upload new photo" : "Upload photo"}
            </button>
          </div>
        </upload.Form>
        {photoId ? (
          <remove.Form method="post" action={action}>
            <button type="submit" name="intent" value="remove" className={secondaryButton} disabled={uploading || removing}>
              {removing ? "Removing…" : "Remove photo"}
            </button>
          </remove.Form>
        ) : null}
        <p role="status" className="sr-only">
          {uploading ? "Uploading your photo…" : removing ? "Removing your photo…" : ""}
        </p>
        {shownError ? <FormNotice>{shownError}</FormNotice> : null}
      </div>
    </div>
  );
}
