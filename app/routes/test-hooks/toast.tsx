import { data } from "react-router";
import { z } from "zod";
import { toastSchema } from "#app/lib/toast";
import { redirectWithToast } from "#app/lib/toast.server";
import type { Route } from "./+types/toast";

const query = toastSchema.extend({ to: z.string().startsWith("/").default("/") });

/** Raises a toast across a redirect, as real actions do, for the e2e suite. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw data("Bad toast parameters", { status: 400 });
  const { to, ...toast } = parsed.data;
  return redirectWithToast(request, context.sessionSecret, to, toast);
}
