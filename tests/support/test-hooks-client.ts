import type { APIRequestContext } from "@playwright/test";
import {
  hookPath,
  type AddedSponsor,
  type BioViewsAnswer,
  type CreatorMembersAnswer,
  type DropStreamsAnswer,
  type ExpiredUnsubscribeAnswer,
  type HookName,
  type InsightsPageAnswer,
  type MemberPageAnswer,
  type MemberPageQuery,
  type MembershipsPostsSeedAnswer,
  type NotificationMailAnswer,
  type NotificationsForm,
  type NotificationsSent,
  type NotifyAnswer,
  type NotifyQuery,
  type OpportunityPostAnswer,
  type OpportunityPostQuery,
  type PaymentsAnswer,
  type ProNotification,
  type ProAnswer,
  type SandboxAccountAnswer,
  type SandboxCheckoutAnswer,
  type StaffAnswer,
  type StaffMembershipsAnswer,
  type SandboxCheckoutState,
  type SandboxLoginAnswer,
  type SandboxDisputeAnswer,
  type SandboxMembershipsAdvanceAnswer,
  type SandboxMembershipState,
  type SignInFailure,
  type SignedInAccountAnswer,
  type SignedInAccountForm,
  type SponsorPaymentsMade,
  type SponsorSessionState,
  type SponsorsQuery,
  type StoredNotification,
  type ToastQuery,
} from "#server/tools/test-hooks/contract";

export { hookPath };

type Query = Record<string, string | number | boolean | undefined>;

/** Pages a browser opens (page.goto), not JSON calls. */
export const hookPages = {
  /** Every service of the server fails while the product renders this address: its error page. */
  boom: () => hookPath("boom"),
  /** A toast raised across a redirect to `to`. */
  toast: (toast: ToastQuery) => hookPath("toast", toast),
};

/**
 * The end-to-end hooks (server/tools/test-hooks/), one typed call each, through a
 * request context that carries the run's secret and, for the signed-in hooks,
 * the person's cookies (page.request). A call that does not answer 200 throws
 * with the hook's status and words, so a spec's setup never goes on half made.
 */
export function testHooks(request: APIRequestContext) {
  async function call<T>(name: HookName, query?: Query): Promise<T> {
    const response = await request.get(hookPath(name, query));
    if (response.status() !== 200) throw new Error(`${hookPath(name, query)} answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A POST of a form (values that must stay out of the address), answered as `call` answers. */
  async function post<T>(name: HookName, form: Record<string, string | number | undefined>): Promise<T> {
    const fields = Object.fromEntries(Object.entries(form).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]));
    const response = await request.post(hookPath(name), { form: fields });
    if (response.status() !== 200) throw new Error(`${hookPath(name)} answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  return {
    /** The sandbox's membership test clock: the subscription given, or every running one, moved on by one period. */
    advanceSandboxMemberships: (subscriptionId?: string) => post<SandboxMembershipsAdvanceAnswer>("sandboxMembershipsAdvance", { subscriptionId }),
    /**
     * A new account, signed up and verified as the forms do (minus the captcha and the mail):
     * the request context's browser (page.request shares its cookies) is left signed in to it.
     */
    signedInAccount: (form: SignedInAccountForm) => post<SignedInAccountAnswer>("signedInAccount", form),
    /** The sign-in failures logged for an email, newest first. */
    signInFailures: (email: string) => call<SignInFailure[]>("identity", { email }),
    /** Disables an account as staff would: its sessions end at once. */
    disableAccount: (email: string) => call<{ disabled: string }>("identity", { do: "disable", email }),
    enableAccount: (email: string) => call<{ enabled: string }>("identity", { do: "enable", email }),
    /** Makes the account staff with an authenticator app enrolled (its base32 secret); `twoFactor: "off"` grants only. */
    makeStaff: (email: string, options: { twoFactor?: "off" } = {}) => call<StaffAnswer>("staff", { email, twoFactor: options.twoFactor }),

    /** The signed-in owner's new bio page with seeded views and clicks (none with `empty`). */
    insightsPage: (options: { name?: string; empty?: boolean } = {}) => call<InsightsPageAnswer>("insightsPage", { name: options.name, empty: options.empty ? 1 : undefined }),
    /** A page of the signed-in creator with tiers Gold and Silver, their members (emails `<prefix>.<name>@e2e.example`) and signed links. */
    membershipsPostsSeed: (prefix: string) => call<MembershipsPostsSeedAnswer>("membershipsPostsSeed", { prefix }),
    /** A page's views record and today's counts, after the pending views are written. */
    bioViews: (ending: string) => call<BioViewsAnswer>("bioViews", { ending }),

    /** The signed-in creator's payout account, made complete the real way. */
    paymentsReady: () => call<PaymentsAnswer>("payments", { ready: true }),
    /** A tier on the signed-in creator's page and one membership per status, written directly for the back office's list. */
    staffMemberships: (options: { statuses: string[]; tier?: string; amount?: number }) =>
      call<StaffMembershipsAnswer>("staffMemberships", { statuses: options.statuses.join(","), tier: options.tier, amount: options.amount }),
    /** Only the profile's payments_enabled, without a payout account. */
    setPaymentsEnabled: (enabled: boolean) => call<PaymentsAnswer>("payments", { enabled }),
    /** Sponsorships to the signed-in creator: `paid` along the real path, `pending` left unpaid. */
    sponsorPayments: (counts: { paid?: number; pending?: number; amount?: number; name?: string; private?: boolean }) => call<SponsorPaymentsMade>("sponsorPayments", counts),
    /** One of the signed-in owner's sessions: status, ledger, refund request, sandbox refunds. */
    sponsorSession: (session: string) => call<SponsorSessionState>("sponsorPayments", { session }),

    sandbox: {
      /** A new account and its onboarding link. */
      account: () => call<SandboxAccountAnswer>("sandbox", { do: "account" }),
      /** A new onboarded account and a checkout for it. */
      checkout: (options: { amount?: number; email?: string } = {}) => call<SandboxCheckoutAnswer>("sandbox", { do: "checkout", ...options }),
      login: (account: string) => call<SandboxLoginAnswer>("sandbox", { do: "login", account }),
      /** The sponsor's bank disputes the payment ("open", the default), or decides its dispute ("won" / "lost"). */
      dispute: (payment: string, outcome: "open" | "won" | "lost" = "open") => call<SandboxDisputeAnswer>("sandbox", { do: "dispute", payment, outcome }),
      state: (checkout: string) => call<SandboxCheckoutState>("sandbox", { do: "state", checkout }),
      /** A new onboarded account and a membership checkout paying to it. */
      membershipCheckout: (options: { amount?: number; interval?: "month" | "year"; email?: string } = {}) =>
        call<SandboxCheckoutAnswer>("sandbox", { do: "membership-checkout", ...options }),
      /** The subscription a membership checkout made (null while unpaid), its state, and a link to its card page. */
      membershipState: (checkout: string) => call<SandboxMembershipState>("sandbox", { do: "membership-state", checkout }),
    },

    /** The signed-in person becomes Pro, or with `false` not Pro. */
    setPro: (pro: boolean) => call<ProAnswer>("pro", pro ? {} : { clear: 1 }),
    proNotifications: (email: string) => call<ProNotification[]>("proNotifications", { email }),
    /** Directory companies of the spec's own prefix and tag, in list order. */
    addSponsors: (query: SponsorsQuery) => call<AddedSponsor[]>("sponsors", query),
    /** An opportunity post of the signed-in person's, dated 2001 and not in the posts total. */
    opportunityPost: (query: OpportunityPostQuery = {}) => call<OpportunityPostAnswer>("opportunityPost", query),

    /** Notifications for a person through sendNotification; their ids, newest first. */
    sendNotifications: (form: NotificationsForm) => post<NotificationsSent>("notifications", form),
    /** A person's notifications as stored. */
    storedNotifications: (email: string) => call<StoredNotification[]>("notifications", { email }),
    /** The signed-in person's notifications sent, read, deleted or counted; the unread count left. */
    notify: (query: NotifyQuery) => call<NotifyAnswer>("notify", query),
    /** The signed-in person's notifications and how many of their mails still wait. */
    notificationMail: () => call<NotificationMailAnswer>("notificationMail"),
    /** An unsubscribe link of the signed-in person's, signed but expired. */
    expiredUnsubscribe: (kind: string) => call<ExpiredUnsubscribeAnswer>("notificationMail", { "expired-unsubscribe": kind }),
    /** The server drops every live notification stream. */
    dropNotificationStreams: () => call<DropStreamsAnswer>("dropNotificationStreams"),

    /** A page of the signed-in creator's with tiers, one paid membership for `memberEmail`, and its member link's path. */
    memberPage: (query: MemberPageQuery) => call<MemberPageAnswer>("memberPage", query),
    /** Two tiers on the signed-in creator's page and a member in each state; the first member has two paid periods. */
    creatorMembers: () => call<CreatorMembersAnswer>("creatorMembers"),
  };
}

export type TestHooks = ReturnType<typeof testHooks>;
