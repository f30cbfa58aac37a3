import { TEST_ROUTES_PATH } from "#server/platform/http/test-routes";

/**
 * What each end-to-end hook under /__test takes and answers: the one description
 * the hooks router (server/tools/test-hooks/router.ts) and the specs' client
 * (tests/support/test-hooks-client.ts) both compile against: types and paths only,
 * so the client pulls in nothing of the server but the guard's prefix. Product code
 * never imports this.
 */

/** Where the hooks are mounted: the prefix server/platform/http/test-routes.ts guards. */
export const TEST_HOOKS_PREFIX = TEST_ROUTES_PATH;

/** Each hook's address below the prefix. */
export const HOOK_PATHS = {
  boom: "/boom",
  toast: "/toast",
  identity: "/identity",
  signedInAccount: "/signed-in-account",
  staff: "/staff",
  insightsPage: "/insights-page",
  payments: "/payments",
  bioViews: "/bio-views",
  sandbox: "/sandbox",
  sandboxMembershipsAdvance: "/sandbox/memberships/advance",
  pro: "/pro",
  opportunityPost: "/opportunity-post",
  sponsorPayments: "/sponsor-payments",
  proNotifications: "/pro-notifications",
  sponsors: "/sponsors",
  notifications: "/notifications",
  notify: "/notify",
  notificationMail: "/notification-mail",
  dropNotificationStreams: "/notification-streams/drop",
  memberPage: "/member-page",
  staffMemberships: "/staff/memberships",
  membershipsPostsSeed: "/memberships-posts-seed",
  creatorMembers: "/creator-members",
} as const;

export type HookName = keyof typeof HOOK_PATHS;

/** The hook's full path, as a browser or request context asks for it. */
export function hookPath(name: HookName, query?: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return `${TEST_HOOKS_PREFIX}${HOOK_PATHS[name]}${text ? `?${text}` : ""}`;
}

// --- Pages (answered with HTML or a redirect, for a browser to open) ---

/** `toast`: a toast raised across a redirect to `to`, as real actions raise one. */
export type ToastQuery = { kind: "info" | "success" | "error"; message: string; to?: string };

// --- Identity ---

export type IdentityQuery = { email: string; do?: "disable" | "enable" };
export type SignInFailure = { description: string | null; subtype: string | null; type: string | null };
export type IdentityAnswer = SignInFailure[] | { disabled: string } | { enabled: string };

/**
 * `signed-in-account` POST (a form, so the password stays out of addresses and logs): a new
 * account signed up and verified as the forms do, minus the captcha and the mail; its session
 * cookie comes back on the answer.
 */
export type SignedInAccountForm = { email: string; password: string; name: string; type?: "creator" | "sponsor" };
export type SignedInAccountAnswer = { uid: string; email: string };

/** `staff`: the account becomes staff with two-factor sign-in (server/tools/test-hooks/staff.ts). */
export type StaffQuery = { email: string; twoFactor?: "off" };
export type StaffAnswer = { uid: string; totpSecret: string | null };
/** `staff-memberships`: the creator's page, the tier made, and one membership per status asked for, oldest first. */
export type StaffMembershipsAnswer = { pageEnding: string; tierName: string; memberships: { id: string; status: string; memberEmail: string }[] };

// --- Bio pages ---

/** `insights-page` (signed in, verified): a page with three links, and with seeded counts unless `empty`. */
export type InsightsPageQuery = { name?: string; empty?: 1 };
export type InsightsPageAnswer = { id: string; customEnding: string };

/** `bio-views`: a page's counts after the process's pending views are written. */
export type BioViewsQuery = { ending: string };
export type BioViewsAnswer = { views: number; today: number; clicks: Record<string, number> };

// --- Payments ---

/** `payments` (signed in): `ready` makes a complete payout account the real way; `enabled` only flips the profile. */
export type PaymentsQuery = { ready: true } | { enabled: boolean };
export type PaymentsAnswer = { uid: string; accountId?: string | null; paymentsEnabled: boolean };

export type SandboxQuery =
  | { do: "account" }
  | { do: "checkout"; amount?: number; email?: string }
  | { do: "login"; account: string }
  | { do: "dispute"; payment: string; outcome?: "open" | "won" | "lost" }
  | { do: "state"; checkout: string }
  | { do: "membership-checkout"; amount?: number; interval?: "month" | "year"; email?: string }
  | { do: "membership-state"; checkout: string };
export type SandboxAccountAnswer = { accountId: string; url: string };
export type SandboxCheckoutAnswer = { accountId: string; checkoutId: string; url: string };
export type SandboxLoginAnswer = { url: string };
export type SandboxDisputeAnswer = { disputeId: string };
export type SandboxCheckoutState = {
  status: string;
  payments: { id: string; amount: number; fee: number; net: number }[];
  events: { type: string; attempts: number; delivered: boolean }[];
};

/** `sandbox?do=membership-state`: the subscription a membership checkout made (null while unpaid), its state, and its card page. */
export type SandboxMembershipState = {
  subscriptionId: string | null;
  state: { status: string; cancelAtPeriodEnd: boolean; invoices: { status: string; paymentIntentId: string | null; amount: number }[] } | null;
  cardUrl: string | null;
};

/** `sandbox/memberships/advance` POST: one subscription (or, without it, every running one) moved on by one period. */
export type SandboxMembershipsAdvanceForm = { subscriptionId?: string };
export type SandboxMembershipsAdvanceAnswer = {
  renewed: number;
  failed: number;
  ended: number;
  changes: { subscriptionId: string; membershipId: string; outcome: "renewed" | "failed" | "ended"; paymentIntentId: string | null; currentPeriodEnd: string }[];
};

/** `sponsor-payments` (signed in, payout account ready): N paid and M unpaid sponsorships, or one session's state. */
export type SponsorPaymentsQuery = { paid?: number; pending?: number; amount?: number } | { session: string };
export type SponsorPaymentsMade = { ending: string; paid: string[]; pending: string[] };
export type SponsorSessionState = {
  status: string;
  paymentIntentId: string | null;
  entries: { kind: string; gross: number; providerFee: number; providerReference: string }[];
  refundRequest: { status: string; attempt: number } | null;
  sandboxRefunds: number;
};

// --- Pro and the sponsor directory ---

/** `pro` (signed in): the person becomes Limitless, or with `clear` no longer Pro. */
export type ProQuery = { clear?: 1 };
export type ProAnswer = { pro: boolean };

export type ProNotificationsQuery = { email: string };
export type ProNotification = { kind: string; title: string; message: string };

/** `sponsors`: `count` directory companies named "<prefix> 01"…, tagged `tag`. */
export type SponsorsQuery = { prefix: string; tag: string; count: number };
export type AddedSponsor = { id: string; name: string };

/** `opportunity-post` (signed in): a post dated 2001 that the posts total does not count. */
export type OpportunityPostQuery = { min?: number; title?: string };
export type OpportunityPostAnswer = { id: string };

// --- Notifications ---

/** `notifications` POST: notifications for `email` through sendNotification (the form's fields). */
export type NotificationsForm = { email: string; title: string; message?: string; buttonText?: string; buttonDestination?: string; count?: number };
export type NotificationsSent = { ids: string[] };
export type NotificationsQuery = { email: string };
export type StoredNotification = { id: string; title: string; unread: boolean; readOn: string | null };

/** `notify` (signed in): change one's own notifications as other writers would; answers the unread count. */
export type NotifyQuery = { do: "send"; n?: number } | { do: "read" } | { do: "delete" } | { do: "count" };
export type NotifyAnswer = { unread: number };

/** `notification-mail` (signed in): one's notifications and waiting mail, or an expired unsubscribe link. */
export type NotificationMailQuery = { "expired-unsubscribe"?: string };
export type NotificationMailAnswer = { notifications: { kind: string; title: string }[]; mailWaiting: number };
export type ExpiredUnsubscribeAnswer = { url: string };

export type DropStreamsAnswer = { dropped: true };

// --- Memberships, the member's side ---

/**
 * `member-page` (signed in, verified: the creator): a page of theirs with three tiers (Gold $5 a month
 * or $50 a year, Silver $8 a month, Paused) and one membership of Gold for `memberEmail`, as the
 * membership writer leaves a paid one (`status` active unless said); its member link's path.
 */
export type MemberPageQuery = { memberEmail: string; status?: "active" | "past_due" | "cancelled" | "ended"; name?: string };
export type MemberPageAnswer = { membershipId: string; path: string; pageName: string; ending: string };
// --- Memberships: posts to members ---

/** `memberships-posts-seed` (signed in, verified): a page with tiers Gold and Silver, two current members of each and an ended Gold one. */
export type MembershipsPostsSeedQuery = { prefix: string };
export type SeededMember = { name: string; tier: "Gold" | "Silver"; email: string; status: "active" | "ended"; memberUrl: string };
export type MembershipsPostsSeedAnswer = { pageId: string; pageName: string; customEnding: string; tiers: { Gold: string; Silver: string }; members: SeededMember[] };
// --- Members ---

/** `creator-members` (signed in, payout account ready): two tiers and a member in each state; Ada has two paid periods. */
export type CreatorMembersAnswer = {
  pageId: string;
  tiers: { bronze: string; gold: string };
  members: { ada: string; bea: string; cy: string; di: string; ed: string };
  names: { ada: string; bea: string; cy: string; di: string; ed: string };
  /** Ada's paid periods (sponsor sessions), oldest first. */
  periods: string[];
};
