import type { Db } from "#server/platform/db/client";
import { success, type Success } from "#server/platform/errors";
import { csvLine, safeText } from "#isomorphic/csv";
import type { MemberFilter } from "#isomorphic/members";
import { minorToDecimal } from "#server/domains/payments/exports/payments-csv";
import { allCreatorMembers, type CreatorMember, type MembersNotFound } from "./creator-view";

/**
 * The creator's members as a spreadsheet, filtered as the page is: one row a membership, as the
 * creator sees it on the page (the name the member gave, even if they asked to stay off the public
 * wall, with `private` beside it). Amounts are exact decimals in the currency's own digits; the
 * money each period brought is in the payments' CSV, one row per movement.
 */
export const MEMBERS_CSV_COLUMNS = [
  "page",
  "tier",
  "name",
  "private",
  "email",
  "state",
  "interval",
  "currency",
  "amount",
  "monthly_amount",
  "joined",
  "renews_at",
  "ends_at",
  "paid_periods",
  "membership_id",
  "cancel_message",
] as const;

/** Excel and Numbers read UTF-8 (members' names) only with a byte order mark. */
const BOM = "\uFEFF";

/** What the membership brings a month, as monthly recurring revenue counts it: a yearly amount ÷ 12, rounded half up. */
export const monthlyAmount = (member: Pick<CreatorMember, "amount" | "interval">) => (member.interval === "year" ? Math.floor((member.amount + 6) / 12) : member.amount);

function line(member: CreatorMember): string {
  return csvLine([
    safeText(member.pageName),
    safeText(member.tierName),
    safeText(member.name ?? ""),
    member.private ? "yes" : "no",
    safeText(member.email ?? ""),
    member.state,
    member.interval,
    member.currency.toUpperCase(),
    minorToDecimal(member.amount, member.currency),
    minorToDecimal(monthlyAmount(member), member.currency),
    member.joined.toISOString(),
    member.renewsAt?.toISOString() ?? "",
    member.endsAt?.toISOString() ?? "",
    String(member.periods.length),
    member.id,
    safeText(member.cancelMessage ?? ""),
  ]);
}

/** The file name and the whole file of `uid`'s members as filtered. */
export async function membersCsv(db: Db, uid: string, filter: Omit<MemberFilter, "page">, now = new Date()): Promise<Success<{ filename: string; csv: string; rows: number }> | MembersNotFound> {
  const found = await allCreatorMembers(db, uid, filter, now);
  if (found.kind === "ERROR") return found;
  const lines = found.members.map(line);
  const csv = BOM + [csvLine(MEMBERS_CSV_COLUMNS), ...lines].join("\r\n") + "\r\n";
  return success({ filename: `members-${now.toISOString().slice(0, 10)}.csv`, csv, rows: lines.length });
}
