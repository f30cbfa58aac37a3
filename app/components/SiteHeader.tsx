import { Link, NavLink } from "react-router";
import { LogoMark } from "./Logo";

export const MAIN_NAV = [
  { to: "/app/sponsors", label: "Sponsors" },
  { to: "/app/opportunities", label: "Opportunities" },
  { to: "/blog", label: "Blog" },
  { to: "/featured", label: "Featured" },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium no-underline hover:bg-primary/10 ${isActive ? "text-primary underline decoration-2 underline-offset-8" : "text-ink"}`;

/** Top bar. The phone menu is a <details> disclosure, so it works without JavaScript. */
export function SiteHeader({ appName }: { appName: string }) {
  return (
    <header className="border-b border-primary/15 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-ink no-underline">
          <LogoMark />
          <span>{appName}</span>
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {MAIN_NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={linkClass}>
              {item.label}
            </NavLink>
          ))}
          <Link
            to="/signin"
            className="ml-3 rounded-full bg-primary px-5 py-2 font-semibold text-white no-underline hover:bg-primary-dark"
          >
            Sign In
          </Link>
        </nav>

        <details className="relative md:hidden">
          <summary className="cursor-pointer rounded-md border border-primary/30 px-3 py-2 font-medium text-primary">
            Menu
          </summary>
          <nav
            aria-label="Main (mobile)"
            className="absolute right-0 z-20 mt-2 flex w-56 flex-col gap-1 rounded-lg border border-primary/15 bg-white p-2 shadow-lg"
          >
            {MAIN_NAV.map((item) => (
              <NavLink key={item.to} to={item.to} className={linkClass}>
                {item.label}
              </NavLink>
            ))}
            <Link to="/signin" className="mt-1 rounded-full bg-primary px-4 py-2 text-center font-semibold text-white no-underline">
              Sign In
            </Link>
          </nav>
        </details>
      </div>
    </header>
  );
}
