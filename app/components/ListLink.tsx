import type { ReactNode } from "react";
import { Link } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";

/**
 * A link repeated down a long list (20 cards a page): a plain anchor in the
 * server render, React Router's `Link` (client-side navigation, route
 * discovery) once React runs in the browser. The markup is the same either
 * way, but `Link`'s hooks resolve its path three times per render, which made
 * the card titles a third of a list page's card rendering on the server
 * (bench/README.md), where they do nothing.
 */
export function ListLink({ to, children }: { to: string; children: ReactNode }) {
  return useHydrated() ? <Link to={to}>{children}</Link> : <a href={to}>{children}</a>;
}
