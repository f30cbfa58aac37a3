import { Link, useRouteLoaderData } from "react-router";
import type { SiteInfo } from "#page-kit/site";

const COPY: Record<"notFound" | "forbidden" | "tooLarge" | "refused" | "error", { title: string; heading: string; body: string }> = {
  notFound: {
    title: "Page not found",
    heading: "We couldn't find that page",
    body: "The link may be broken, or the page may have been moved or removed.",
  },
  forbidden: {
    title: "Access denied",
    heading: "You don't have access to this page",
    body: "Sign in with the account that owns it, or go back to where you were.",
  },
  // A form sent in the page (fetch) that the server's body cap refused (server/platform/http/body-limit.ts).
  tooLarge: {
    title: "Too much to send",
    heading: "That was too much to send",
    body: "What you sent is larger than this site accepts. Go back, shorten what you entered and try again.",
  },
  // Any other 4xx: the request itself was refused (e.g. a garbled form), not our failure.
  refused: {
    title: "Request refused",
    heading: "We couldn't accept that request",
    body: "Something in what was sent can't be accepted, so nothing was changed. Go back, check the form and try again.",
  },
  error: {
    title: "Something went wrong",
    heading: "Something went wrong on our side",
    body: "We've logged the problem and will look into it. Please try again in a moment.",
  },
};

/**
 * The error page for /500, unknown paths and any failed load. It never shows
 * error details: those go to the server log only.
 */
export function ErrorPage({ status }: { status: number }) {
  const site = useRouteLoaderData<{ site: SiteInfo }>("root")?.site;
  const copy =
    status === 404
      ? COPY.notFound
      : status === 403
        ? COPY.forbidden
        : status === 413
          ? COPY.tooLarge
          : status >= 400 && status < 500
            ? COPY.refused
            : COPY.error;
  const appName = site?.appName ?? "Sponsorgrid";
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center">
      <title>{`${copy.title} | ${appName}`}</title>
      <meta name="robots" content="noindex, nofollow" />
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">Error {status}</p>
      <h1 className="mt-3 text-3xl font-bold sm:text-4xl">{copy.heading}</h1>
      <p className="mt-4 text-lg text-muted">{copy.body}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="rounded-full bg-primary px-6 py-3 font-semibold text-white no-underline hover:bg-primary-dark">
          Go to the home page
        </Link>
        <Link to="/support" className="rounded-full border border-primary px-6 py-3 font-semibold text-primary no-underline">
          Visit Support
        </Link>
      </div>
      {site ? (
        <p className="mt-8 text-muted">
          Still stuck? Email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>.
        </p>
      ) : null}
    </section>
  );
}
