/**
 * What an API key may do (ADR 0056): read or write, per resource. The My Account form lists
 * them; every `/api/v1` operation names the one it needs (server/features/api/operations/).
 */
export const API_RESOURCES = [
  { id: "opportunities", label: "Opportunities", read: "List and read opportunities", write: "Post, edit and delete your opportunities" },
  { id: "bio_pages", label: "Bio pages", read: "Read your bio pages", write: "Update your bio pages" },
  { id: "memberships", label: "Membership tiers", read: "List your pages' membership tiers", write: "Add and change your pages' membership tiers" },
  { id: "payments", label: "Payments", read: "List and read payments you received", write: "Refund payments" },
  { id: "members", label: "Members", read: "List and read your members and their paid periods", write: "End a member's membership, with a message to them" },
  { id: "notifications", label: "Notifications", read: "List your notifications", write: "Mark notifications read and delete them" },
  {
    id: "deals",
    label: "Deals",
    read: "List and read your deals, their messages and work, and the applications and offers on your opportunities",
    write: "Apply to briefs, make offers, counter, accept, decline, withdraw and shortlist deals, write in their threads, hand in and review work",
  },
  {
    id: "webhooks",
    label: "Webhooks",
    read: "List your webhook endpoints and their delivery logs",
    write: "Add, change, turn off and delete endpoints, rotate their secrets, send test events and resend deliveries",
  },
] as const;

export type ApiResource = (typeof API_RESOURCES)[number]["id"];
export type ApiAccess = "read" | "write";
export type ApiScope = `${ApiResource}:${ApiAccess}`;

export const API_SCOPES: readonly ApiScope[] = API_RESOURCES.flatMap((resource) => [`${resource.id}:read`, `${resource.id}:write`] as const);

export function isApiScope(value: unknown): value is ApiScope {
  return typeof value === "string" && (API_SCOPES as readonly string[]).includes(value);
}

/** A key lives at most this long; "never" is allowed too (an empty expiry). */
export const API_KEY_EXPIRY_CHOICES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
  { days: null, label: "Never" },
] as const;

/** At most this many keys that are not revoked per account, so a leaked session cannot mint thousands. */
export const MAX_API_KEYS_PER_ACCOUNT = 25;
export const API_KEY_NAME_MAX = 60;
