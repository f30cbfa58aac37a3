// Browser-safe: the creator's view of their members (server/domains/memberships/creator-view.ts),
// its address, filters and words, shared by the page, its CSV and the home's card.

/** The creator's members: figures, chart, list, filters. */
export const MEMBERS_PATH = "/app/members";
/** The same list as a spreadsheet (a file, no page), with the page's filters. */
export const MEMBERS_CSV_PATH = "/app/members.csv";

/**
 * A member as the creator sees them. `cancelled`: cancelled (by the member or the creator) and
 * still a member until the paid period ends; `ended`: no longer a member.
 */
export const MEMBER_STATES = ["active", "past_due", "cancelled", "ended"] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

export const MEMBER_STATE_LABELS: Record<MemberState, string> = {
  active: "Active",
  past_due: "Past due",
  cancelled: "Cancelled",
  ended: "Ended",
};

/** What each state means, under its heading on the list. */
export const MEMBER_STATE_HINTS: Record<MemberState, string> = {
  active: "Paid up and renewing.",
  past_due: "A renewal failed and the payment provider is retrying. Still a member meanwhile.",
  cancelled: "Cancelled: still a member until the paid period ends, then no further charge.",
  ended: "No longer a member.",
};

/** The longest message a creator may send the member they cancel. */
export const CANCEL_MESSAGE_MAX = 1000;

/** Members on one page of the list. */
export const MEMBERS_PAGE_SIZE = 100;

export type MemberFilter = { pageId: string | null; tierId: string | null; state: MemberState | null; page: number };

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const idOf = (value: string | null) => (value && ID.test(value) ? value : null);

/** The filters the list's links carry; anything not one of ours reads as "no filter". */
export function parseMemberFilter(params: URLSearchParams): MemberFilter {
  const state = params.get("state");
  const page = Number(params.get("page") ?? 0);
  return {
    pageId: idOf(params.get("bioPage")),
    tierId: idOf(params.get("tier")),
    state: (MEMBER_STATES as readonly string[]).includes(state ?? "") ? (state as MemberState) : null,
    page: Number.isInteger(page) && page >= 0 && page <= 10_000 ? page : 0,
  };
}

/** The query of a filter (empty for none), in a fixed order so each filter has one address. */
export function memberFilterQuery(filter: Partial<MemberFilter>): string {
  const params = new URLSearchParams();
  if (filter.pageId) params.set("bioPage", filter.pageId);
  if (filter.tierId) params.set("tier", filter.tierId);
  if (filter.state) params.set("state", filter.state);
  if (filter.page) params.set("page", String(filter.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const membersHref = (filter: Partial<MemberFilter>) => `${MEMBERS_PATH}${memberFilterQuery(filter)}`;
export const membersCsvHref = (filter: Partial<MemberFilter>) => `${MEMBERS_CSV_PATH}${memberFilterQuery({ ...filter, page: 0 })}`;

/** The id of one member's row on the list. */
export const memberRowId = (membershipId: string) => `member-${membershipId}`;

/** Where a member's Cancel asks first, without JavaScript too. */
export const cancelMemberPath = (membershipId: string) => `${MEMBERS_PATH}/${encodeURIComponent(membershipId)}/cancel`;
