import { Link } from "react-router";
import { primaryButton } from "#page-kit/forms";

export const NEW_PAGE_PATH = "/app/account/bizbio/new";

/** A creator's home before their first page: the one thing to do first. */
export function CreatorStart() {
  return (
    <section aria-labelledby="creator-start-heading" className="mb-14 rounded-2xl border-2 border-primary/30 bg-primary/5 p-5 sm:p-6">
      <h2 id="creator-start-heading" className="text-2xl font-bold">
        Make your page
      </h2>
      <p className="mt-1 text-muted">One address for your links, your story and tips from fans. It takes a few minutes.</p>
      <Link to={NEW_PAGE_PATH} className={`${primaryButton} mt-4 no-underline`}>
        Make your page
      </Link>
    </section>
  );
}
