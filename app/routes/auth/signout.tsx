import { redirect } from "react-router";
import { signOut } from "#server/domains/auth/flows";
import { cookieHeaders } from "#server/domains/auth/session";
import { identityDeps } from "#app/lib/identity.server";
import type { Route } from "./+types/signout";

/** Sign Out (a POST from the user menu): ends the session and goes to the home page. */
export async function action({ request, context }: Route.ActionArgs) {
  const headers = await signOut(identityDeps(context), request.headers);
  throw redirect("/", { headers: cookieHeaders(headers) });
}

export function loader() {
  throw redirect("/");
}
