import { domainError, type DomainError } from "#server/platform/errors";
import { NO_SUCH_POST, NOT_YOUR_POST } from "#server/domains/opportunities/mutations";
import type { NoSuchPost, NotYourPost } from "#server/features/operations/opportunities/opportunity-input";

/**
 * The opportunity pages' words for a post the operation answered not-found. The operations keep
 * someone else's post from everyone (the API says not_found); the pages have always told its
 * signed-in visitor "only the person who posted this can change it" (403), and still do.
 */
export function ownPostRefusal(refused: NoSuchPost | NotYourPost): DomainError<"not-found" | "permission-denied"> {
  return refused.reason === "NOT_YOURS" ? domainError("permission-denied", NOT_YOUR_POST) : domainError("not-found", NO_SUCH_POST);
}
