import type { ProfileCard } from "#server/features/profiles/directory";
import { Link } from "react-router";
import { Avatar } from "#app/components/Avatar";

/** Bio pages in the Profiles directory; each card opens the page on the bio host. */
export function ProfileCards({ profiles, bioOrigin }: { profiles: ProfileCard[]; bioOrigin: string }) {
  const host = new URL(bioOrigin).host;
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {profiles.map((profile) => (
        <li key={profile.customEnding} className="relative flex flex-col rounded-2xl bg-secondary/30 p-6 focus-within:ring-2 focus-within:ring-primary">
          <div className="flex items-center gap-3">
            <Avatar name={profile.name} photoId={profile.photoId} size={48} className="shrink-0" />
            <h2 className="min-w-0 break-words text-lg font-bold">
              <a href={`${bioOrigin}/${profile.customEnding}`} className="no-underline after:absolute after:inset-0 after:content-['']">
                {profile.name}
              </a>
            </h2>
          </div>
          {profile.ownerName ? <p className="text-sm">by {profile.ownerName}</p> : null}
          <p className="break-all text-sm text-muted">
            {host}/{profile.customEnding}
          </p>
          {profile.blurb ? <p className="mt-3 line-clamp-3 break-words">{profile.blurb}</p> : null}
          {profile.linkLabels.length > 0 ? <p className="mt-3 text-sm text-muted">Links: {profile.linkLabels.join(", ")}</p> : null}
          {profile.acceptsSponsorships ? (
            <>
              <p className="mt-3 self-start rounded-full bg-primary px-3 py-1 text-sm font-medium text-white">Accepts sponsorships</p>
              {/* Above the card's stretched link, so it is a link of its own. */}
              <Link to={`/app/deals/new?page=${profile.customEnding}`} className="relative z-10 mt-3 self-start text-sm font-semibold" aria-label={`Make ${profile.name} an offer`}>
                Make an offer
              </Link>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
