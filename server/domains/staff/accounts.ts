import { and, asc, count, desc, eq, gt, ilike, or } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { accountSuspensions, bioPages, connectedAccounts, opportunityPosts, user } from "#server/platform/db/schema";
import { refusal, success, type Result } from "#server/platform/errors";

/** The back office's view of accounts: find one, and see who it is (ADR 0051). */

export const ACCOUNTS_PAGE_SIZE = 20;

export type AccountRow = { id: string; email: string; name: string; role: "user" | "admin"; disabled: boolean; createdAt: Date };

/** `%` and `_` typed into the search are searched for, not wildcards. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Accounts whose email or name contains `q` (any case), by email; keyset-paged on the email
 * (unique), `after` being the last email of the page before.
 */
export async function searchAccounts(db: Db, { q, after }: { q: string; after?: string | null }): Promise<{ rows: AccountRow[]; next: string | null }> {
  const text = q.trim().slice(0, 200);
  const conditions = [];
  if (text) conditions.push(or(ilike(user.email, likeText(text)), ilike(user.name, likeText(text))));
  if (after) conditions.push(gt(user.email, after));
  const rows = await db
    .select({ id: user.id, email: user.email, name: user.name, role: user.role, disabled: user.disabled, createdAt: user.createdAt })
    .from(user)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(user.email))
    .limit(ACCOUNTS_PAGE_SIZE + 1);
  const page = rows.slice(0, ACCOUNTS_PAGE_SIZE);
  return { rows: page, next: rows.length > ACCOUNTS_PAGE_SIZE ? page.at(-1)!.email : null };
}

export type SuspensionRecord = typeof accountSuspensions.$inferSelect;

export type AccountDetail = AccountRow & {
  twoFactorEnabled: boolean;
  bioPages: number;
  opportunities: number;
  payout: "none" | "incomplete" | "complete";
  suspensions: SuspensionRecord[];
};

/** One account as staff see it: who, role, two-factor, its pages and posts, payout account, suspensions (newest first). */
export async function accountDetail(db: Db, uid: string): Promise<Result<{ account: AccountDetail }>> {
  const [row] = await db
    .select({ id: user.id, email: user.email, name: user.name, role: user.role, disabled: user.disabled, createdAt: user.createdAt, twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.id, uid));
  if (!row) return refusal("not-found", "NO_ACCOUNT", "No such account.");
  const [[pages], [posts], [payout], suspensions] = await Promise.all([
    db.select({ n: count() }).from(bioPages).where(eq(bioPages.uid, uid)),
    db.select({ n: count() }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, uid)),
    db.select({ completed: connectedAccounts.completed }).from(connectedAccounts).where(eq(connectedAccounts.uid, uid)),
    db.select().from(accountSuspensions).where(eq(accountSuspensions.uid, uid)).orderBy(desc(accountSuspensions.suspendedAt)),
  ]);
  return success({
    account: {
      ...row,
      bioPages: pages?.n ?? 0,
      opportunities: posts?.n ?? 0,
      payout: !payout ? "none" : payout.completed ? "complete" : "incomplete",
      suspensions,
    },
  });
}
