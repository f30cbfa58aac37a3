import { route, type RouteConfigEntry } from "@react-router/dev/routes";

// Route files are named from app/ (React Router's appDirectory); ids stay short.
const page = (path: string, name: string) => route(path, `../server/providers/payments/sandbox/pages/${name}.tsx`, { id: `sandbox/${name}` });

/**
 * The sandbox's own pages, mounted by the provider: the app's route table
 * spreads these in and knows nothing else of them. Each page answers 404
 * unless the sandbox is the configured provider (pages/sandbox.server.ts).
 */
export function sandboxRoutes(): RouteConfigEntry[] {
  return [
    page("sandbox", "index"),
    page("sandbox/onboarding/:accountId", "onboarding"),
    page("sandbox/checkout/:checkoutId", "checkout"),
    page("sandbox/dashboard/:accountId", "dashboard"),
    page("sandbox/pro-checkout/:checkoutId", "pro-checkout"),
    page("sandbox/portal/:customerId", "portal"),
    page("sandbox/membership-checkout/:checkoutId", "membership-checkout"),
    page("sandbox/membership-card/:subscriptionId", "membership-card"),
  ];
}
