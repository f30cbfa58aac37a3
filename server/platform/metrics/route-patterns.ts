import { matchRoutes, type ServerBuild } from "react-router";

type Tree = { id: string; path?: string; index?: boolean; children: Tree[] };

/** Paths Express answers itself, before React Router: named by their mount, not by the address. */
const EXPRESS_MOUNTS: readonly [prefix: string, label: string][] = [
  ["/assets/", "/assets/*"],
  ["/api/functions/", "/api/functions/:name"],
  ["/api/auth/", "/api/auth/*"],
  ["/api/captcha/", "/api/captcha/*"],
  ["/api/notifications/stream", "/api/notifications/stream"],
  ["/__test/", "/__test/*"],
];

/**
 * The route pattern a path is answered by ("/app/opportunities/:id"), from the build's route
 * table, so a histogram has one series per route rather than one per address. A single-fetch
 * data request (`/x.data`, `/_root.data`) is named by the page it loads.
 */
export function routePatterns(build: Pick<ServerBuild, "routes">): (path: string) => string {
  const nodes = new Map<string, Tree>();
  for (const route of Object.values(build.routes)) {
    if (route) nodes.set(route.id, { id: route.id, path: route.path, index: route.index, children: [] });
  }
  const roots: Tree[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  // matchRoutes flattens and ranks the whole route table on every call (about 1.5 ms of CPU): the
  // addresses seen lately are remembered, a bounded number, so a flood of new ones costs no memory.
  const recent = new Map<string, string>();
  return (path) => {
    const known = recent.get(path);
    if (known !== undefined) return known;
    const pattern = patternOf(path);
    if (path.length > RECENT_PATH_LENGTH) return pattern;
    if (recent.size >= RECENT_PATHS) recent.delete(recent.keys().next().value!);
    recent.set(path, pattern);
    return pattern;
  };

  function patternOf(path: string): string {
    for (const [prefix, label] of EXPRESS_MOUNTS) if (path.startsWith(prefix)) return label;
    const page = path === "/_root.data" ? "/" : path.endsWith(".data") ? path.slice(0, -".data".length) : path;
    let matches;
    try {
      matches = matchRoutes(roots as never, page);
    } catch {
      matches = null;
    }
    if (!matches) return "unmatched";
    const pattern = matches.map((match) => (match.route as Tree).path ?? "").filter(Boolean).join("/");
    return `/${pattern.replace(/^\/+/, "").replace(/\/+/g, "/")}`;
  }
}

/** How many addresses' patterns are remembered: the pages a process serves repeatedly, a few ids each. */
const RECENT_PATHS = 2000;
const RECENT_PATH_LENGTH = 200;
