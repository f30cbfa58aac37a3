import { fontStack } from "#isomorphic/bio-theme";
import { formatMoney } from "#isomorphic/format";
import { photoSrcSet, photoUrl } from "#isomorphic/profile-photo";
import type { ShowcasePage } from "#server/domains/bio/showcase";

const FACE_PX = 72;

/**
 * A bio page as a fan sees it on a phone, drawn from the page's own data in its own theme: the
 * face, the name, the story, the goal, the tip amounts and the first links. An illustration (one
 * image to assistive technology, named for what it shows); the caption below it carries the link
 * to the real page. The theme's colour pairs are the ones the picker holds to AA contrast.
 */
export function BioPagePhone({ page, className = "" }: { page: ShowcasePage; className?: string }) {
  const { theme } = page;
  const screen = { background: theme.background, color: theme.text, fontFamily: fontStack(theme.font) };
  const button = { background: theme.button, color: theme.buttonText };
  const initial = [...page.name.trim()][0]?.toLocaleUpperCase("en-US") ?? "";
  const shows = [page.photoId ? "photo" : null, page.tips ? "tip amounts" : null, page.links.length > 0 ? "links" : null].filter(Boolean).join(", ");
  return (
    <div className={`mx-auto w-full max-w-[17rem] rounded-[2.5rem] border-[9px] border-ink bg-ink shadow-xl ${className}`}>
      <div
        role="img"
        aria-label={`The bio page of ${page.name} on a phone${shows ? `, with ${shows}` : ""}`}
        style={screen}
        className="h-[31rem] overflow-hidden rounded-[1.9rem] px-4 pb-4 pt-7 text-center"
      >
        {page.photoId ? (
          <img
            src={photoUrl(page.photoId, 192)}
            srcSet={photoSrcSet(page.photoId, FACE_PX)}
            width={FACE_PX}
            height={FACE_PX}
            alt=""
            loading="lazy"
            className="mx-auto h-[4.5rem] w-[4.5rem] rounded-full object-cover"
          />
        ) : (
          <div style={button} className="mx-auto grid h-[4.5rem] w-[4.5rem] place-items-center rounded-full text-3xl font-bold">
            {initial}
          </div>
        )}
        <p className="mt-3 break-words text-lg font-bold leading-tight">{page.name}</p>
        {page.blurb ? <p className="mt-1 line-clamp-3 break-words text-sm leading-snug">{page.blurb}</p> : null}
        {page.goal ? (
          <div className="mt-3 text-left text-xs font-semibold">
            <p className="truncate">{page.goal.title}</p>
            <div className="mt-1 h-2 rounded-full" style={{ background: theme.text, opacity: 0.25 }}>
              <div className="h-2 w-2/5 rounded-full" style={{ background: theme.button }} />
            </div>
          </div>
        ) : null}
        {page.tips ? (
          <div className="mt-4">
            <p className="text-sm font-bold">Support {page.name}</p>
            <div className="mt-2 grid grid-cols-4 gap-1.5">
              {page.tips.slice(0, 3).map((amount) => (
                <span key={amount} style={button} className="rounded-full py-2 text-sm font-bold">
                  {formatMoney(amount)}
                </span>
              ))}
              <span style={{ borderColor: theme.button }} className="rounded-full border-2 py-1.5 text-sm font-bold">
                Other
              </span>
            </div>
          </div>
        ) : null}
        <div className="mt-4 space-y-2">
          {page.links.map((label, index) => (
            <span key={`${label}-${index}`} style={button} className="block truncate rounded-full px-3 py-2.5 text-sm font-semibold">
              {label}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}
