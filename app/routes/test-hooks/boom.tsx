import { data } from "react-router";
import type { Route } from "./+types/boom";

export const handle = { hydrate: false };

/** Lets the e2e suite prove that an unexpected failure shows the error page, not the error. */
export function loader({ context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  throw new Error("Deliberate test failure: SECRET-STACK-MARKER");
}

export default function Boom() {
  return null;
}
