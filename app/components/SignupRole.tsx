import { Link } from "react-router";
import type { UserType } from "#server/platform/db/schema";

const ROLE_WORDS: Record<UserType, string> = { creator: "a creator", sponsor: "a sponsor" };
const OTHER: Record<UserType, UserType> = { creator: "sponsor", sponsor: "creator" };

/** The sign-up's side, said plainly, with the way to the other one (the same form, the other `?type=`). */
export function SignupRole({ type, redirectTo }: { type: UserType | null; redirectTo: string }) {
  const href = (to: UserType) => `/signup?${new URLSearchParams({ type: to, ...(redirectTo !== "/app" ? { redirectTo } : {}) })}`;
  if (!type) {
    return (
      <p className="mt-4 rounded-xl bg-primary/5 px-4 py-3 text-sm">
        Joining as a creator or a sponsor? <Link to={href("creator")}>I'm a creator</Link> · <Link to={href("sponsor")}>I'm a sponsor</Link>
      </p>
    );
  }
  return (
    <p className="mt-4 rounded-xl bg-primary/5 px-4 py-3 text-sm" data-signup-role={type}>
      <span className="font-semibold">You're signing up as {ROLE_WORDS[type]}.</span>{" "}
      <Link to={href(OTHER[type])}>I'm {ROLE_WORDS[OTHER[type]]} instead</Link>
    </p>
  );
}
