import { Form, Link, NavLink } from "react-router";
import { useLiveUnreadCount } from "#app/lib/use-live-unread-count";
import { SUPPORTERS_PATH } from "#isomorphic/supporters";
import { Avatar } from "./Avatar";
import { LogoMark } from "./Logo";

export const MAIN_NAV = [
  { to: "/app/sponsors", label: "Sponsors" },
  { to: "/app/opportunities", label: "Opportunities" },
  { to: "/blog", label: "Blog" },
  { to: "/featured", label: "Featured" },
] as const;

export type HeaderAccount = {
  name: string;
  email: string;
  unreadNotifications: number;
  /** Their profile photo (server/domains/media/), or null: the initial shows. */
  photoId: string | null;
  /** The person's bio pages as the header needs them: its only page's id (else null), and whether there is any. */
  pages: { onlyPageId: string | null; hasPage: boolean };
};

/**
 * A creator's own two links (docs/decisions/0036-creator-home.md): "My page" for every signed-in
 * person (the only page's editor, else the dashboard of pages, where the first one is made) and,
 * once there is a page to be paid through, "Supporters": the one list of who paid them, with
 * Refund, Info, the CSV and a link to Earnings (isomorphic/supporters.ts).
 */
export function creatorNav(pages: HeaderAccount["pages"]): { to: string; label: string }[] {
  const myPage = { to: pages.onlyPageId ? `/edit/${pages.onlyPageId}` : "/app/account/bizbio", label: "My page" };
  return pages.hasPage ? [myPage, { to: SUPPORTERS_PATH, label: "Supporters" }] : [myPage];
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium no-underline hover:bg-primary/10 ${isActive ? "text-primary underline decoration-2 underline-offset-8" : "text-ink"}`;

const menuItemClass = "block w-full rounded-md px-3 py-2 text-left font-medium text-ink no-underline hover:bg-primary/10";

/** SPEC §2.3: Notifications shows the unread count in brackets when above zero. */
export function notificationsLabel(unread: number): string {
  return unread > 0 ? `Notifications (${unread})` : "Notifications";
}

/** What the polite live region says when the count changes while the page is open. */
export function unreadAnnouncement(unread: number): string {
  return unread === 1 ? "1 unread notification" : unread > 0 ? `${unread} unread notifications` : "No unread notifications";
}

/**
 * The signed-in user's menu: a <details> disclosure, so it works without JavaScript. With
 * JavaScript the unread count stays live (one event stream per tab); the badge sits over the
 * avatar, so its coming and going moves nothing else.
 */
function UserMenu({ account }: { account: HeaderAccount }) {
  const { count: unread, live } = useLiveUnreadCount(account.unreadNotifications);
  return (
    <>
    <details className="relative">
      <summary className="flex cursor-pointer items-center gap-2 rounded-full border border-primary/30 px-3 py-1.5 font-medium text-primary">
        <span className="relative">
          <Avatar name={account.name} photoId={account.photoId} size={28} />
          {unread > 0 ? (
            <span className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-accent px-1 text-center text-xs leading-5 font-bold text-on-accent ring-2 ring-white">
              {unread}
              <span className="sr-only"> unread notifications</span>
            </span>
          ) : null}
        </span>
        {/* Only the avatar below lg: the bar holds the Menu there too (My page, Supporters). */}
        <span className="sr-only lg:not-sr-only">Account</span>
      </summary>
      <div className="absolute right-0 z-30 mt-2 w-60 rounded-lg border border-primary/15 bg-white p-2 shadow-lg">
        <p className="truncate px-3 py-2 text-sm text-muted">{account.email}</p>
        <nav aria-label="Account">
          <Link to="/app" className={menuItemClass}>
            Dashboard
          </Link>
          <Link to="/app/notifications" className={menuItemClass}>
            {notificationsLabel(unread)}
          </Link>
          <Link to="/app/deals" className={menuItemClass}>
            My deals
          </Link>
          <Link to="/app/account" className={menuItemClass}>
            My Account
          </Link>
          <Form method="post" action="/signout">
            <button type="submit" className={menuItemClass}>
              Sign Out
            </button>
          </Form>
        </nav>
      </div>
    </details>
    {/* Outside the disclosure (a closed one hides its content); says each change that arrives
        live, not every page load's number. */}
    <span role="status" aria-live="polite" className="sr-only">
      {live ? unreadAnnouncement(unread) : ""}
    </span>
    </>
  );
}

/** Top bar. The phone menu is a <details> disclosure, so it works without JavaScript. */
export function SiteHeader({ appName, account }: { appName: string; account: HeaderAccount | null }) {
  return (
    <header className="border-b border-primary/15 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-ink no-underline">
          <LogoMark />
          <span>{appName}</span>
        </Link>

        <div className="flex items-center gap-2">
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {MAIN_NAV.map((item) => (
              <NavLink key={item.to} to={item.to} className={linkClass}>
                {item.label}
              </NavLink>
            ))}
            {/* From lg up: below it they would wrap the bar, and sit in the Menu instead. */}
            {account
              ? creatorNav(account.pages).map((item) => (
                  <NavLink key={item.to} to={item.to} className={(state) => `${linkClass(state)} hidden lg:inline`}>
                    {item.label}
                  </NavLink>
                ))
              : null}
            {account ? null : (
              <Link
                to="/signin"
                className="ml-3 rounded-full bg-primary px-5 py-2 font-semibold text-white no-underline hover:bg-primary-dark"
              >
                Sign In
              </Link>
            )}
          </nav>

          <details className={`relative ${account ? "lg:hidden" : "md:hidden"}`}>
            <summary className="cursor-pointer rounded-md border border-primary/30 px-3 py-2 font-medium text-primary">
              Menu
            </summary>
            <nav
              aria-label="Main (mobile)"
              className="absolute right-0 z-20 mt-2 flex w-56 flex-col gap-1 rounded-lg border border-primary/15 bg-white p-2 shadow-lg"
            >
              {MAIN_NAV.map((item) => (
                <NavLink key={item.to} to={item.to} className={(state) => `${linkClass(state)} ${account ? "md:hidden" : ""}`}>
                  {item.label}
                </NavLink>
              ))}
              {account
                ? creatorNav(account.pages).map((item) => (
                    <NavLink key={item.to} to={item.to} className={linkClass}>
                      {item.label}
                    </NavLink>
                  ))
                : null}
              {account ? null : (
                <Link to="/signin" className="mt-1 rounded-full bg-primary px-4 py-2 text-center font-semibold text-white no-underline">
                  Sign In
                </Link>
              )}
            </nav>
          </details>

          {account ? <UserMenu account={account} /> : null}
        </div>
      </div>
    </header>
  );
}
