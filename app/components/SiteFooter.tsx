import { Link } from "react-router";
import type { SiteInfo } from "#page-kit/site";

export const FOOTER_GUIDES = [
  { to: "/finding-the-best-sponsorships", label: "Finding the Best Sponsorships" },
  { to: "/youtube-sponsorships", label: "YouTube Sponsorships" },
  { to: "/podcast-sponsorships", label: "Podcast Sponsorships" },
  { to: "/gamer-sponsorships", label: "Gamer Sponsorships" },
] as const;

// SPEC §2.1: the /support link is labelled "Frequently Asked Questions" in the footer.
export const FOOTER_SUPPORT = [
  { to: "/support", label: "Frequently Asked Questions" },
  { to: "/support/code-of-conduct", label: "Code of Conduct" },
  { to: "/support/reporting", label: "Reporting" },
  { to: "/legal/privacy-policy", label: "Privacy Policy" },
  { to: "/legal/terms-of-service", label: "Terms of Use" },
] as const;

export const FOOTER_COMPANY = [
  { to: "/about", label: "About" },
  { to: "/blog", label: "Blog" },
  { to: "/featured", label: "Featured" },
  { to: "/support/payments", label: "Payments Support" },
  { to: "/developers/api", label: "API for developers" },
] as const;

function LinkColumn({ title, links }: { title: string; links: ReadonlyArray<{ to: string; label: string }> }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-secondary">{title}</h2>
      <ul className="space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-white/90 no-underline hover:text-white hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SiteFooter({ site }: { site: SiteInfo }) {
  return (
    <footer className="site-footer mt-16 bg-ink text-white">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <LinkColumn title="Guides" links={FOOTER_GUIDES} />
        <LinkColumn title="Support" links={FOOTER_SUPPORT} />
        <LinkColumn title={site.appName} links={FOOTER_COMPANY} />
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-secondary">Contact</h2>
          <p className="text-white/90">
            Questions or a problem with a payment? Email{" "}
            <a href={`mailto:${site.supportEmail}`} className="font-medium text-white underline">
              {site.supportEmail}
            </a>
            .
          </p>
        </div>
      </div>
      <div className="border-t border-white/15">
        <p className="mx-auto max-w-6xl px-4 py-5 text-sm text-white/80">
          © {site.year} {site.companyName}. {site.appName} is open-source software.
        </p>
      </div>
    </footer>
  );
}

/** The app's one line (app/lib/footer-kind.ts): help and the legal pages, no advertising. */
export function AppFooter({ site }: { site: SiteInfo }) {
  return (
    <footer className="mt-12 border-t border-primary/15">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-4 text-sm text-muted">
        <p>
          © {site.year} {site.companyName}
        </p>
        <nav aria-label="Help and legal">
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            <li>
              <Link to="/support">Help</Link>
            </li>
            <li>
              <Link to="/legal/privacy-policy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/legal/terms-of-service">Terms of Use</Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
