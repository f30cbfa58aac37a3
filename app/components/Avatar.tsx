import { photoSrcSet, photoUrl } from "#isomorphic/profile-photo";

/**
 * A person's face: their profile photo, or the first letter of their name on
 * a coloured disc when they have none. Decorative beside a visible name
 * (empty alt), so screen readers don't hear the name twice.
 */
export function Avatar({ name, photoId, size = 40, className = "" }: { name: string; photoId: string | null; size?: number; className?: string }) {
  const box = { width: size, height: size };
  if (photoId) {
    return (
      <img
        src={photoUrl(photoId, 96)}
        srcSet={photoSrcSet(photoId, size)}
        alt=""
        width={size}
        height={size}
        style={box}
        className={`rounded-full object-cover ${className}`}
      />
    );
  }
  const initial = [...name.trim()][0]?.toLocaleUpperCase("en-US") ?? "?";
  return (
    <span aria-hidden="true" style={{ ...box, fontSize: size * 0.45 }} className={`inline-grid place-items-center rounded-full bg-accent font-bold text-on-accent ${className}`}>
      {initial}
    </span>
  );
}
