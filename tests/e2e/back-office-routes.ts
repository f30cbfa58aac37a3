import fs from "node:fs";
import path from "node:path";

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; hasAction: boolean; hasDefaultExport: boolean };

/**
 * Every route of the back office in the build the tests run against, read from React Router's
 * own manifest (build/client/assets/manifest-*.js), so a section added later is covered without
 * touching the spec. Params get a dummy value: the guard answers before anything is looked up.
 */
export function backOfficeRoutes(root = process.cwd()): { id: string; path: string; hasAction: boolean }[] {
  const assets = path.join(root, "build/client/assets");
  const file = fs.readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("No route manifest in build/client/assets: run `npm run build` first.");
  const text = fs.readFileSync(path.join(assets, file), "utf8");
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  const routes = (JSON.parse(json) as { routes: Record<string, ManifestRoute> }).routes;
  const fullPath = (route: ManifestRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const own = route.path ?? "";
    const above = parent ? fullPath(parent) : "";
    return [above, own].filter(Boolean).join("/").replace(/\/+/g, "/");
  };
  return Object.values(routes)
    .map((route) => ({ route, full: fullPath(route) }))
    .filter(({ full }) => full === "app/admin" || full.startsWith("app/admin/"))
    .map(({ route, full }) => ({
      id: route.id,
      path: `/${full}`.replace(/:(\w+)\??/g, "dummy-$1").replace(/\*$/, "anything"),
      hasAction: route.hasAction,
    }));
}
