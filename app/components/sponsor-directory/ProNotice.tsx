import { Link } from "react-router";
import { proUpsellPath } from "./pro-path";

/**
 * The polite inline explanation a non-Pro person gets for a tag click or a name search. A sponsor
 * (`upsell` false) is told what Pro is for instead of being sold it.
 */
export function ProNotice({ what, returnTo, id, upsell = true }: { what: string; returnTo: string; id?: string; upsell?: boolean }) {
  return (
    <p id={id} role="status" className="rounded-lg border border-primary/20 bg-primary/5 px-4 py-3">
      {what} is for Pro members.{" "}
      {upsell ? (
        <>
          <Link to={proUpsellPath(returnTo)}>Upgrade to Pro</Link> to search every company in the directory.
        </>
      ) : (
        <>
          Pro is made for creators looking for sponsors; as a sponsor, find creators on <Link to="/app/profiles">Profiles</Link>.
        </>
      )}
    </p>
  );
}
