import { Link } from "react-router";
import { proUpsellPath } from "./pro-path";

/** The polite inline explanation a non-Pro person gets for a tag click or a name search. */
export function ProNotice({ what, returnTo, id }: { what: string; returnTo: string; id?: string }) {
  return (
    <p id={id} role="status" className="rounded-lg border border-primary/20 bg-primary/5 px-4 py-3">
      {what} is for Pro members. <Link to={proUpsellPath(returnTo)}>Upgrade to Pro</Link> to search every company in the directory.
    </p>
  );
}
