import { answerRefusal } from "#page-kit/respond.server";
import { ErrorPage } from "#app/components/ErrorPage";

export const handle = { hydrate: false };

/** The product's error destination (SPEC §8: failed loads redirect here). */
export function loader() {
  // Rendered by this route (not the error boundary), with the status of an internal error.
  return answerRefusal({ code: "internal" }, null);
}

export default function ServerErrorPage() {
  return <ErrorPage status={500} />;
}
