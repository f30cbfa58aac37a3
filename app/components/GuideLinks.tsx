import { Link } from "react-router";
import { FOOTER_GUIDES } from "./SiteFooter";

/** The sponsorship guides as a list of links, optionally leaving out the current one. */
export function GuideLinks({ exceptPath, className }: { exceptPath?: string; className?: string }) {
  return (
    <ul className={className}>
      {FOOTER_GUIDES.filter((guide) => guide.to !== exceptPath).map((guide) => (
        <li key={guide.to}>
          <Link to={guide.to}>{guide.label}</Link>
        </li>
      ))}
    </ul>
  );
}
