import { NavLink, Outlet } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { ADMIN_SECTIONS } from "#app/components/admin/sections";
import type { Route } from "./+types/layout";

/** Every child route guards itself too: a layout's loader does not run on every fetch of its children. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  return { staffEmail: staff.email };
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm no-underline ${isActive ? "bg-ink text-white font-semibold" : "hover:bg-black/5"}`;

export default function BackOffice({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 lg:grid lg:grid-cols-[14rem_1fr] lg:gap-8">
      <nav aria-label="Back office" className="mb-6 lg:mb-0">
        <p className="px-3 text-xs font-semibold uppercase tracking-wide text-muted">Back office</p>
        <ul className="mt-2 flex gap-1 overflow-x-auto lg:block lg:space-y-1">
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.path} className="shrink-0">
              <NavLink to={section.path} end={section.path === "/app/admin"} className={linkClass}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <p className="mt-4 hidden px-3 text-xs text-muted lg:block">Signed in as {loaderData.staffEmail}</p>
      </nav>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
