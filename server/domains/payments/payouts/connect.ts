import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { connectedAccounts } from "#server/platform/db/schema";
import { domainError, refusal, success, type DomainError, type Refusal, type Success } from "#server/platform/errors";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { applyAccountState, lockAccountOfUser } from "#server/domains/payments/payouts/account-state";
import type { AccountType, ConnectedAccountState, PaymentProvider } from "#server/providers/payments/port";

/** Where the provider sends the person back after onboarding, and where an expired link restarts it. */
export const ONBOARDING_RETURN_PATH = "/app/payments/setup/return";
export const ONBOARDING_REFRESH_PATH = "/app/payments/setup/refresh";

export type ConnectResult =
  /** CREATE_NEW: a new account; EXISTING_INCOMPLETE: one that cannot take charges yet. Both continue at `url` (the provider's onboarding). */
  | Success<{ outcome: "CREATE_NEW" | "EXISTING_INCOMPLETE"; url: string }>
  | Success<{ outcome: "EXISTING_COMPLETE" }>
  /** The account row or the provider could not be read or written: the error page in place, 500 or 503 (ADR 0014). */
  | Refusal<"internal", "NOT_SAVED"> | Refusal<"unavailable", "PROVIDER_UNREACHABLE">;

/** A `?state=` token that is not the signed-in user's own (someone else's link, or an old one). */
const notYourLink = () => refusal("permission-denied", "NOT_YOUR_LINK", "This payments setup link is not for your account. Start the setup again from Payments.");

const newStateToken = () => crypto.randomBytes(24).toString("base64url");

/**
 * The provider's onboarding page for the account. `returnTo`, a path of ours the caller already
 * checked (safeRedirectPath), rides along on both addresses so the person comes back to where
 * they started the setup (the setup checklist), not to My Payments.
 */
async function onboardingLink(provider: PaymentProvider, accountId: string, origin: string, stateToken: string, returnTo?: string) {
  const next = returnTo ? `&next=${encodeURIComponent(returnTo)}` : "";
  const withState = (path: string) => `${origin}${path}?state=${encodeURIComponent(stateToken)}${next}`;
  const { url } = await provider.createOnboardingLink({ accountId, returnUrl: withState(ONBOARDING_RETURN_PATH), refreshUrl: withState(ONBOARDING_REFRESH_PATH) });
  return url;
}

/** Writes what the provider says under the account row's lock; true when the account is complete. */
async function storeState(db: Db, uid: string, state: ConnectedAccountState, notify: NotificationDeps): Promise<boolean> {
  const applied = await db.transaction(async (tx) => {
    const row = await lockAccountOfUser(tx, uid);
    if (!row || row.providerAccountId !== state.accountId) return null;
    return applyAccountState(tx, row, state, notify);
  });
  return applied?.completed ?? false;
}

/**
 * The payments setup's "Connect with …" (SPEC §4 connected account): none →
 * a new account (CREATE_NEW); one that cannot take charges yet →
 * EXISTING_INCOMPLETE, back to onboarding; complete → EXISTING_COMPLETE.
 * Completeness is asked of the provider, never assumed: an incomplete row is
 * read fresh, and if the provider now says it can take charges it becomes
 * complete here (as the account.updated webhook would make it).
 * Two tabs at once make one account: the row is inserted on conflict do
 * nothing and the provider call carries the key `account_<uid>`.
 */
export async function getOrCreateConnectedAccount(
  db: Db,
  provider: PaymentProvider,
  input: { uid: string; email: string; accountType: AccountType; origin: string; returnTo?: string },
  notify: NotificationDeps,
): Promise<ConnectResult> {
  try {
    await db.insert(connectedAccounts).values({ uid: input.uid, stateToken: newStateToken(), accountType: input.accountType }).onConflictDoNothing({ target: connectedAccounts.uid });
    const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, input.uid));
    if (!row) return refusal("internal", "NOT_SAVED", "The payout account could not be saved.");

    if (!row.providerAccountId) {
      const { accountId } = await provider.createConnectedAccount({ idempotencyKey: `account_${input.uid}`, email: input.email, accountType: row.accountType as AccountType, uid: input.uid });
      await db.update(connectedAccounts).set({ providerAccountId: accountId }).where(and(eq(connectedAccounts.uid, input.uid), isNull(connectedAccounts.providerAccountId)));
      return success({ outcome: "CREATE_NEW", url: await onboardingLink(provider, accountId, input.origin, row.stateToken, input.returnTo) });
    }
    if (row.completed) return success({ outcome: "EXISTING_COMPLETE" });
    const state = await provider.readAccount(row.providerAccountId);
    if (await storeState(db, input.uid, state, notify)) return success({ outcome: "EXISTING_COMPLETE" });
    return success({ outcome: "EXISTING_INCOMPLETE", url: await onboardingLink(provider, row.providerAccountId, input.origin, row.stateToken, input.returnTo) });
  } catch {
    return refusal("unavailable", "PROVIDER_UNREACHABLE", "The payment provider could not be reached.");
  }
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export type ReturnResult = Success<{ completed: boolean }> | Refusal<"permission-denied", "NOT_YOUR_LINK"> | DomainError<"unavailable">;

/**
 * The person came back from onboarding with `?state=`. The token must be the
 * signed-in user's own (a link opened by someone else, or an old token, is
 * refused), and the account is read fresh: coming back is not finishing.
 */
export async function completeOnboardingReturn(
  db: Db,
  provider: PaymentProvider,
  input: { uid: string; stateToken: string },
  notify: NotificationDeps,
): Promise<ReturnResult> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, input.uid));
  if (!row?.providerAccountId || !sameToken(row.stateToken, input.stateToken)) {
    return notYourLink();
  }
  let state: ConnectedAccountState;
  try {
    state = await provider.readAccount(row.providerAccountId);
  } catch {
    return domainError("unavailable", "The payment provider could not be reached. Please try again in a moment.");
  }
  return success({ completed: await storeState(db, input.uid, state, notify) });
}

export type ResumeResult = ConnectResult | Refusal<"permission-denied", "NOT_YOUR_LINK">;

/**
 * The onboarding link expired and the provider sent the person to our refresh
 * address: with the signed-in user's own state token, a fresh link to the same
 * account (or EXISTING_COMPLETE if it finished meanwhile).
 */
export async function resumeOnboarding(
  db: Db,
  provider: PaymentProvider,
  input: { uid: string; email: string; stateToken: string; origin: string; returnTo?: string },
  notify: NotificationDeps,
): Promise<ResumeResult> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, input.uid));
  if (!row?.providerAccountId || !sameToken(row.stateToken, input.stateToken)) {
    return notYourLink();
  }
  return getOrCreateConnectedAccount(db, provider, { uid: input.uid, email: input.email, accountType: row.accountType as AccountType, origin: input.origin, returnTo: input.returnTo }, notify);
}
