import { index, route, type RouteConfig } from "@react-router/dev/routes";
import { CONTENT_PAGES } from "#isomorphic/content-pages";
import { LEGACY_REDIRECTS } from "./signed-in-routes";
// React Router loads this file by itself, without the project's #aliases: a path is the only way in.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { sandboxRoutes } from "../server/providers/payments/sandbox/routes";

// Mirrors SPEC §2. Later capabilities (opportunities, sponsors, bio pages,
// payments) add their routes here.
export default [
  index("routes/home.tsx"),
  ...CONTENT_PAGES.map((page) => route(page.path, "routes/content-page.tsx", { id: `content:${page.slug}` })),
  route("blog", "routes/blog-index.tsx"),
  route("blog/:slug", "routes/blog-post.tsx"),
  route("featured", "routes/featured.tsx"),
  // Reporting a bio page or an opportunity, open to guests, no cookie (server/domains/moderation/, ADR 0050).
  route("report", "routes/report.tsx"),
  route("500", "routes/error-500.tsx"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),

  // Identity (SPEC §2.2, §2.5, §4)
  route("signin", "routes/auth/signin.tsx"),
  // The second step of a sign-in with two-factor (ADR 0049).
  route("signin/two-factor", "routes/auth/two-factor.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("signout", "routes/auth/signout.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("app", "routes/app/dashboard.tsx"),
  route("app/verify", "routes/app/verify.tsx"),
  route("app/account", "routes/app/account.tsx"),
  // Pro membership (SPEC §2.5, §6): the plans, checkout's return, and My Account's Pro Portal button.
  route("app/pro", "routes/app/pro.tsx"),
  route("app/account/pro-portal", "routes/app/pro-portal.ts"),
  // The profile photo, one per person (server/domains/media/): the editor and My Account post here.
  route("app/account/photo", "routes/app/photo.tsx"),
  // Two-factor sign-in with an authenticator app, for everyone; staff are sent here first (ADR 0049).
  route("app/account/two-factor", "routes/app/two-factor.tsx"),
  // API keys for the public API (server/domains/api-keys/, ADR 0056): made, listed and revoked here.
  route("app/account/api-keys", "routes/app/api-keys.tsx"),
  // Outgoing webhooks: the account's endpoints, each with its delivery log (server/platform/outgoing-webhooks/).
  route("app/account/webhooks", "routes/app/webhooks.tsx"),
  // What invoices say about the account: legal name, address, tax id, and a creator's tax line.
  route("app/account/billing", "routes/app/billing.tsx"),
  route("app/account/webhooks/:endpointId", "routes/app/webhook-endpoint.tsx"),
  // One-click unsubscribe from notification mail, signed out (ADR 0025).
  route("unsubscribe/:token", "routes/unsubscribe.tsx"),
  // Memberships, the member's side (ADR 0084): their page by the signed link in every mail, signed out; the signed-in fan's list.
  route("membership/:token", "routes/membership/manage.tsx"),
  route("membership/:token/new-links", "routes/membership/manage-new-links.tsx"),
  route("app/account/memberships", "routes/membership/my-memberships.tsx"),

  // Opportunity marketplace (SPEC §2.1, §2.2, §2.5)
  route("app/opportunities", "routes/opportunities/list.tsx"),
  route("app/opportunities/new", "routes/opportunities/new.tsx"),
  route("app/opportunities/edit", "routes/opportunities/edit.tsx"),
  route("app/opportunities/sponsor", "routes/opportunities/sponsor.tsx"),
  route("app/opportunities/:docId", "routes/opportunities/detail.tsx"),
  route("app/opportunities/:docId/heart", "routes/opportunities/heart.tsx"),
  // The deal room (server/domains/deals/): a creator applies to a brief, a sponsor makes an offer on a request.
  route("app/opportunities/:docId/apply", "routes/deals/open.tsx", { id: "deal-apply" }),
  route("app/opportunities/:docId/offer", "routes/deals/open.tsx", { id: "deal-offer" }),
  route("app/deals", "routes/deals/my-deals.tsx"),
  route("app/deals/new", "routes/deals/offer-to-creator.tsx"),
  route("app/deals/:dealId", "routes/deals/deal.tsx"),
  // A deal's files, served to its two sides only (server/domains/deals/files.ts).
  route("app/deals/:dealId/files/:fileId", "routes/deals/deal-file.ts"),
  // A booked deal's paperwork (server/domains/deals/paperwork-read.ts): the invoice for both sides, the statement for the creator.
  route("app/deals/:dealId/invoice", "routes/deals/paperwork/invoice.tsx"),
  route("app/deals/:dealId/invoice.pdf", "routes/deals/paperwork/invoice-pdf.ts"),
  route("app/deals/:dealId/statement", "routes/deals/paperwork/statement.tsx"),
  route("app/deals/:dealId/statement.pdf", "routes/deals/paperwork/statement-pdf.ts"),
  route("app/account/opportunities", "routes/opportunities/my-posts.tsx"),
  route("app/account/opportunities/liked", "routes/opportunities/liked.tsx"),
  route("api/account-posts", "routes/api/account-posts.ts"),

  // Sponsor directory and Profiles (SPEC §2.1, §2.5, §6; ADR 0022). Not app/routes/sponsor-payments/: that is the Sponsors Dashboard.
  route("app/sponsors", "routes/sponsor-directory/list.tsx"),
  route("app/sponsors/previews", "routes/sponsor-directory/previews.tsx"),
  route("app/sponsors/recent", "routes/sponsor-directory/recent.tsx"),
  route("app/sponsors/:sponsorId", "routes/sponsor-directory/detail.tsx"),
  route("app/profiles", "routes/profiles.tsx"),

  // Bio pages, owner's side (SPEC §2.2, §2.5). The public page lives on the bio host, not here.
  route("app/account/bizbio", "routes/bio/dashboard.tsx"),
  route("app/account/bizbio/new", "routes/bio/new.tsx"),
  route("app/account/bizbio/edit", "routes/bio/edit.tsx", { id: "bio-edit" }),
  route("edit/:pageId", "routes/bio/edit.tsx", { id: "bio-edit-short" }),
  route("app/account/bizbio/delete", "routes/bio/delete.tsx"),
  // Insights of one page: the owner's charts, QR code and share image.
  route("app/account/bizbio/:pageId/insights", "routes/bio/insights.tsx"),
  route("app/account/bizbio/:pageId/supporters", "routes/bio/supporters.tsx"),
  route("app/account/bizbio/:pageId/qr.svg", "routes/bio/qr-svg.ts"),
  route("app/account/bizbio/:pageId/qr.png", "routes/bio/qr-png.ts"),
  route("app/account/bizbio/:pageId/preview", "routes/bio/preview.ts"),
  // The setup checklist's "Copy your link" step, ticked (server/domains/bio/readiness.ts).
  route("app/account/bizbio/:pageId/link-copied", "routes/bio/link-copied.ts"),
  // Memberships (ADR 0084): a page's tiers for its owner; joining one and the welcome after paying, open to guests.
  route("app/account/bizbio/:pageId/memberships", "routes/memberships/tiers.tsx"),
  route("app/memberships/join", "routes/memberships/join.tsx"),
  route("app/memberships/welcome", "routes/memberships/welcome.tsx"),

  // Sponsor checkout from a bio page and its result pages, open to guests (SPEC §2.1, §2.5).
  route("app/payments/checkout", "routes/payments/checkout.tsx"),
  route("app/payments/success", "routes/payments/success.tsx"),
  route("app/payments/cancelled", "routes/payments/cancelled.tsx"),

  // Sponsor payments, the owner's side (SPEC §2.2, §2.5).
  route("app/account/sponsors", "routes/sponsor-payments/dashboard.tsx"),
  route("app/account/sponsors/payments", "routes/sponsor-payments/payments.tsx"),
  route("app/account/sponsors/payments/:sessionId", "routes/sponsor-payments/payment-info.tsx"),
  route("app/account/sponsors/payments/:sessionId/refund", "routes/sponsor-payments/refund.tsx"),
  // Supporters: the one list of who paid the creator, with Refund, Info and the CSV; SPEC's money screens link here.
  route("app/account/supporters", "routes/sponsor-payments/supporters.tsx"),

  // Members: who stays (server/domains/memberships/creator-view.ts): figures, chart, list, CSV, and a member's cancel.
  route("app/members", "routes/members/members.tsx"),
  route("app/members.csv", "routes/members/members-csv.ts"),
  route("app/members/:membershipId/cancel", "routes/members/cancel.tsx"),

  // Payments, the creator's side (SPEC §2.2, §2.5). The return/refresh addresses are connect.ts's.
  route("app/payments/setup", "routes/payments/setup.tsx"),
  route("app/payments/setup/return", "routes/payments/setup-return.tsx"),
  route("app/payments/setup/refresh", "routes/payments/setup-refresh.tsx"),
  route("app/account/payments", "routes/payments/my-payments.tsx"),
  route("app/account/payments/dashboard", "routes/payments/payouts-dashboard.ts"),
  // The received payments as a spreadsheet (a file, no page).
  route("app/account/payments/export.csv", "routes/payments/export-csv.ts"),

  // Posts to members (server/domains/memberships/posts.ts): the creator writes and lists; members read by their signed link.
  route("app/members/posts", "routes/members/posts-list.tsx"),
  route("app/members/posts/new", "routes/members/posts-new.tsx"),
  route("membership/:token/posts", "routes/membership/posts.tsx"),
  route("membership/:token/posts/:postId", "routes/membership/posts-post.tsx"),
  route("membership/:token/mute", "routes/membership/posts-mute.tsx"),

  // Notifications (SPEC §2.2, §2.5).
  route("app/notifications", "routes/notifications/notifications.tsx"),

  // The public API's reference and the webhooks guide, rendered from the OpenAPI document (server/features/api/reference.ts).
  route("developers/api", "routes/developers/api.tsx"),
  route("developers/api/:resource", "routes/developers/api-resource.tsx"),
  route("developers/webhooks", "routes/developers/webhooks.tsx"),

  // The back office (server/domains/staff/): staff only, with two-factor sign-in; each section guards itself.
  // A deal's files for staff reading a dispute (server/domains/deals/files.ts); the page lives in the back office below.
  route("app/admin/deals/:dealId/files/:fileId", "routes/admin/deal-file.ts"),
  route("app/admin", "routes/admin/layout.tsx", [
    index("routes/admin/overview.tsx"),
    // Sections: one line each, kept in ADMIN_SECTIONS' order (app/components/admin/sections.ts).
    route("accounts", "routes/admin/accounts.tsx"),
    route("accounts/:uid", "routes/admin/account.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("audit/export.csv", "routes/admin/audit-export.ts"),
    route("sponsors", "routes/admin/sponsors/list.tsx"),
    route("sponsors/new", "routes/admin/sponsors/new.tsx"),
    route("sponsors/import", "routes/admin/sponsors/import.tsx"),
    route("sponsors/export.csv", "routes/admin/sponsors/export-csv.ts"),
    route("sponsors/:sponsorId", "routes/admin/sponsors/edit.tsx"),
    route("reports", "routes/admin/reports.tsx"),
    route("reports/:type/:id", "routes/admin/report-item.tsx"),
    route("content", "routes/admin/content.tsx"),
    route("disputes", "routes/admin/disputes.tsx"),
    route("reconciliation", "routes/admin/reconciliation.tsx"),
    route("payments", "routes/admin/payments.tsx"),
    route("payments/pro", "routes/admin/payments-pro.tsx"),
    route("payments/payouts", "routes/admin/payments-payouts.tsx"),
    route("payments/fees", "routes/admin/payments-fees.tsx"),
    route("payments/:sessionId", "routes/admin/payment.tsx"),
    route("memberships", "routes/admin/memberships.tsx"),
    route("deals", "routes/admin/deals.tsx"),
    route("deals/:dealId", "routes/admin/deal.tsx"),
  ]),

  // The built-in sandbox payment provider mounts its own pages (a 404 unless it is the provider).
  ...sandboxRoutes(),

  ...Object.keys(LEGACY_REDIRECTS).map((path) =>
    route(path, "routes/legacy-redirect.tsx", { id: `legacy:${path}` }),
  ),
  route("api/password-policy", "routes/api/password-policy.ts"),
  // Payment provider webhooks: the signature is checked over the raw body.
  route("api/payments/webhooks/:provider", "routes/api/payment-webhooks.ts"),
  route("dev/mailbox", "routes/dev-mailbox.tsx"),
  route("dev/mailbox/:id", "routes/dev-mailbox-message.tsx"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
