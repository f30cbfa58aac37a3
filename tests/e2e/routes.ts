/** Every public page this build serves, with the title and heading a reader sees. */
export type PublicPage = { path: string; title: string; heading: string | RegExp };

export const PUBLIC_PAGES: PublicPage[] = [
  { path: "/", title: "Sponsorships for creators", heading: /Get sponsored/ },
  { path: "/support", title: "Frequently Asked Questions", heading: "Frequently Asked Questions" },
  { path: "/legal/privacy-policy", title: "Privacy Policy", heading: "Privacy Policy" },
  { path: "/legal/terms-of-service", title: "Terms of Use", heading: "Terms of Use" },
  { path: "/support/code-of-conduct", title: "Code of Conduct", heading: "Code of Conduct" },
  { path: "/support/reporting", title: "Reporting Guidelines", heading: "Reporting Guidelines" },
  { path: "/support/payments", title: "Payments Support", heading: "Payments Support" },
  { path: "/finding-the-best-sponsorships", title: "How to Find the Best Sponsorships for Your Channel", heading: "How to Find the Best Sponsorships for Your Channel" },
  { path: "/youtube-sponsorships", title: "How to Land, Price, and Deliver YouTube Sponsorships", heading: "How to Land, Price, and Deliver YouTube Sponsorships" },
  { path: "/podcast-sponsorships", title: "Podcast Sponsorships for Independent Shows", heading: "Podcast Sponsorships for Independent Shows" },
  { path: "/gamer-sponsorships", title: "Gamer and Streamer Sponsorships on Twitch, YouTube Gaming, and Kick", heading: "Gamer and Streamer Sponsorships on Twitch, YouTube Gaming, and Kick" },
  { path: "/blog", title: "Blog", heading: "Blog" },
  { path: "/about", title: "About Us", heading: "About Us" },
  { path: "/featured", title: "Featured", heading: "Featured" },
];

export const MAIN_NAV = [
  ["Sponsors", "/app/sponsors"],
  ["Opportunities", "/app/opportunities"],
  ["Blog", "/blog"],
  ["Featured", "/featured"],
  ["Sign In", "/signin"],
] as const;

export const FOOTER_LINKS = [
  ["Finding the Best Sponsorships", "/finding-the-best-sponsorships"],
  ["YouTube Sponsorships", "/youtube-sponsorships"],
  ["Podcast Sponsorships", "/podcast-sponsorships"],
  ["Gamer Sponsorships", "/gamer-sponsorships"],
  ["Frequently Asked Questions", "/support"],
  ["Code of Conduct", "/support/code-of-conduct"],
  ["Reporting", "/support/reporting"],
  ["Privacy Policy", "/legal/privacy-policy"],
  ["Terms of Use", "/legal/terms-of-service"],
] as const;
