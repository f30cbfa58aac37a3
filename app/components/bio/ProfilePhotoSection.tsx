import { PhotoUpload } from "#app/components/PhotoUpload";

/** The editor's photo part: the person's one profile photo, shown at the top of every page of theirs. */
export function ProfilePhotoSection({ name, photoId, returnTo }: { name: string; photoId: string | null; returnTo: string }) {
  return (
    <section aria-labelledby="profile-photo-heading" className="mt-8 rounded-2xl border border-primary/15 p-6 shadow-sm">
      <h2 id="profile-photo-heading" className="text-xl font-bold">
        Photo
      </h2>
      <p className="mt-1 text-sm text-muted">Shown at the top of your page, above your name. Saved on its own, straight away.</p>
      <div className="mt-4">
        <PhotoUpload name={name} photoId={photoId} returnTo={returnTo} />
      </div>
    </section>
  );
}
