import { and, eq, inArray, isNull } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import { consumeRateLimit, rateLimitKey } from "#server/platform/abuse/rate-limit";
import { DEAL_RATE_LIMITS } from "#server/platform/abuse/rules";
import { nanoid } from "nanoid";
import { getOpportunity } from "#server/domains/opportunities/read";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { Db } from "#server/platform/db/client";
import { bioPages, dealActivity, deals, dealTerms, LIVE_DEAL_STATES, profiles, type DealSide } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { tellOtherSide } from "./notices";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { parseLinks, type DealTermsInput } from "./terms-form";

export type OpenDealInput = {
  uid: string;
  opportunityId: string;
  pitch: string;
  /** Up to three addresses, one per line or space. */
  links: string;
  /** One of the opener's own bio pages, or "" for none. */
  bioPageId: string;
  terms: DealTermsInput;
  network: string;
};

export type PitchFieldErrors = Partial<Record<"pitch" | "links" | "bioPageId", string>>;

/** Too many new deals from one account today (DEAL_RATE_LIMITS). */
export type TooManyDeals = Refusal<"resource-exhausted", "RATE_LIMITED", { retryAfterSeconds: number }>;

export type OpenDealRefusal =
  | TooManyDeals
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"invalid-argument", "OWN_OPPORTUNITY" | "CLOSED">
  | Refusal<"aborted", "ALREADY_OPEN", { dealId: string }>
  | FieldRefusal<PitchFieldErrors>;

const NO_SUCH_OPPORTUNITY = refusal("not-found", "NOT_FOUND", "There is no such opportunity.");

/** Which side the person opening a deal on `kind` takes, and which the poster takes. */
export function sidesOn(kind: "brief" | "request"): { opener: DealSide; receiver: DealSide } {
  return kind === "brief" ? { opener: "creator", receiver: "sponsor" } : { opener: "sponsor", receiver: "creator" };
}

function checkPitch(input: OpenDealInput): Success<{ pitch: string; links: string[] }> | FieldRefusal<PitchFieldErrors> {
  const pitch = input.pitch.trim();
  const links = parseLinks(input.links);
  const errors: PitchFieldErrors = {};
  if (!pitch) errors.pitch = "Say why you are a good match";
  else if ([...pitch].length > MAX_DEAL_TEXT) errors.pitch = `Must be at most ${MAX_DEAL_TEXT} characters`;
  if (typeof links === "string") errors.links = links;
  return typeof links === "string" || errors.pitch ? fieldRefusal(errors) : success({ pitch, links });
}

async function ownBioPage(db: Db, uid: string, bioPageId: string): Promise<string | null | false> {
  if (!bioPageId) return null;
  const [page] = await db.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, bioPageId), eq(bioPages.uid, uid)));
  return page ? page.id : false;
}

/**
 * A creator's application to a brief, or a sponsor's offer on a creator's request: the deal, its
 * first terms and its first activity row, and the poster told, in one transaction. The poster's
 * own post, a closed one and a second live deal by the same person are refused.
 */
export async function openDeal(
  db: Db,
  deps: NotificationDeps,
  input: OpenDealInput,
  now = new Date(),
): Promise<Success<{ dealId: string }> | OpenDealRefusal> {
  const post = await getOpportunity(db, input.opportunityId, input.uid);
  if (!post || post.removedReason !== null) return NO_SUCH_OPPORTUNITY;
  if (post.posterUid === input.uid) return refusal("invalid-argument", "OWN_OPPORTUNITY", "This is your own opportunity.");
  if (post.applicationDeadline && new Date(post.applicationDeadline) < now) {
    return refusal("invalid-argument", "CLOSED", "This opportunity's deadline has passed.");
  }
  const checked = checkPitch(input);
  if (checked.kind === "ERROR") return checked;
  const { opener } = sidesOn(post.kind);
  const bioPageId = opener === "creator" ? await ownBioPage(db, input.uid, input.bioPageId) : null;
  if (bioPageId === false) return fieldRefusal<PitchFieldErrors>({ bioPageId: "Choose one of your own bio pages" });

  const people = { creator: opener === "creator" ? input.uid : post.posterUid, sponsor: opener === "sponsor" ? input.uid : post.posterUid };
  const live = await liveDealOf(db, post.id, people);
  if (live) return refusal("aborted", "ALREADY_OPEN", "You already have a deal open on this opportunity.", { dealId: live });

  const limited = await countOpening(db, input.uid, now);
  if (limited) return limited;
  const origin = opener === "creator" ? "application" : "offer";
  const opening = { origin, opportunityId: post.id, title: post.title, people, openedBy: opener, pitch: checked.pitch, links: checked.links, bioPageId } as const;
  try {
    return success({ dealId: await insertDeal(db, deps, opening, input, now) });
  } catch (error) {
    // Two submissions at once: the unique index let one through; the other is that one again.
    const winner = await liveDealOf(db, post.id, people);
    if (winner) return refusal("aborted", "ALREADY_OPEN", "You already have a deal open on this opportunity.", { dealId: winner });
    throw error;
  }
}

/** Counts one new deal against the account's daily limit; the refusal when it is spent. */
async function countOpening(db: Db, uid: string, now: Date): Promise<TooManyDeals | null> {
  const counted = await consumeRateLimit(db, rateLimitKey("deals:opened", uid), DEAL_RATE_LIMITS.opened, now);
  if (counted.allowed) return null;
  const hours = Math.ceil(counted.retryAfterSeconds / 3600);
  return refusal("resource-exhausted", "RATE_LIMITED", `You have started ${DEAL_RATE_LIMITS.opened.limit} deals today. Try again in ${hours === 1 ? "an hour" : `${hours} hours`}.`, {
    retryAfterSeconds: counted.retryAfterSeconds,
  });
}

type Opening = {
  origin: "application" | "offer";
  opportunityId: string | null;
  title: string;
  people: { creator: string; sponsor: string };
  openedBy: DealSide;
  pitch: string;
  links: readonly string[];
  bioPageId: string | null;
};

/** The deal, its first terms and its first activity row, and the receiving side told, in one transaction. */
async function insertDeal(db: Db, deps: NotificationDeps, opening: Opening, input: { uid: string; terms: DealTermsInput; network: string }, now: Date): Promise<string> {
  const dealId = `deal_${nanoid(16)}`;
  const receiver = opening.openedBy === "creator" ? "sponsor" : "creator";
  await db.transaction(async (tx) => {
    await tx.insert(deals).values({
      id: dealId,
      origin: opening.origin,
      opportunityId: opening.opportunityId,
      title: opening.title,
      creatorUid: opening.people.creator,
      sponsorUid: opening.people.sponsor,
      openedBy: opening.openedBy,
      state: "proposed",
      waitingOn: receiver,
      latestVersion: 1,
      pitch: opening.pitch,
      links: [...opening.links],
      bioPageId: opening.bioPageId,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(dealTerms).values({ dealId, version: 1, proposedBy: opening.openedBy, ...input.terms, createdAt: now });
    await tx.insert(dealActivity).values({ dealId, seq: 1, action: opening.origin, actorUid: input.uid, fromState: null, toState: "proposed", termsVersion: 1, network: input.network, at: now });
    await tellOtherSide(tx, deps, { recipientUid: opening.people[receiver], actorUid: input.uid, news: opening.origin, dealId, title: opening.title, price: input.terms.price, currency: input.terms.currency });
  });
  return dealId;
}

export type DirectOfferInput = { uid: string; bioPageEnding: string; subject: string; pitch: string; terms: DealTermsInput; network: string };
export type DirectOfferFieldErrors = Partial<Record<"subject" | "pitch", string>>;
export type DirectOfferRefusal =
  | TooManyDeals
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"invalid-argument", "OWN_PAGE">
  | Refusal<"aborted", "ALREADY_OPEN", { dealId: string }>
  | FieldRefusal<DirectOfferFieldErrors>;

const NO_SUCH_PAGE = refusal("not-found", "NOT_FOUND", "There is no such bio page.");

/**
 * A sponsor's offer to the creator behind a public bio page, with no opportunity: the subject is
 * the deal's title and the page is shown with it. One live direct offer per sponsor and creator:
 * the creator's profile row is locked while it is checked and written, so two at once are one.
 */
export async function openDirectOffer(db: Db, deps: NotificationDeps, input: DirectOfferInput, now = new Date()): Promise<Success<{ dealId: string }> | DirectOfferRefusal> {
  const page = await publicPageOwner(db, input.bioPageEnding);
  if (!page) return NO_SUCH_PAGE;
  if (page.uid === input.uid) return refusal("invalid-argument", "OWN_PAGE", "This is your own page.");
  const subject = input.subject.trim();
  const checked = checkPitch({ ...input, links: "", bioPageId: "", opportunityId: "" });
  const errors: DirectOfferFieldErrors = checked.kind === "ERROR" ? { pitch: checked.fieldErrors.pitch } : {};
  if (!subject) errors.subject = "Say what the offer is for, like “Spring headphone launch”";
  else if ([...subject].length >= 100) errors.subject = "Must be under 100 characters";
  if (errors.subject || errors.pitch || checked.kind === "ERROR") return fieldRefusal(errors);

  const limited = await countOpening(db, input.uid, now);
  if (limited) return limited;
  const people = { creator: page.uid, sponsor: input.uid };
  const opening = { origin: "offer", opportunityId: null, title: subject, people, openedBy: "sponsor", pitch: checked.pitch, links: [], bioPageId: page.id } as const;
  return db.transaction(async (tx) => {
    await tx.select({ uid: profiles.uid }).from(profiles).where(eq(profiles.uid, page.uid)).for("update");
    const [live] = await tx
      .select({ id: deals.id })
      .from(deals)
      .where(and(isNull(deals.opportunityId), eq(deals.creatorUid, page.uid), eq(deals.sponsorUid, input.uid), inArray(deals.state, [...LIVE_DEAL_STATES])));
    if (live) return refusal("aborted", "ALREADY_OPEN", "You already have an offer open with this creator.", { dealId: live.id });
    return success({ dealId: await insertDeal(tx, deps, opening, input, now) });
  });
}

/** The creator behind a live public bio page (not taken down, owner active): who a direct offer goes to. */
export async function publicPageOwner(db: Db, ending: string): Promise<{ id: string; uid: string; ending: string; pageName: string; creatorName: string } | null> {
  const [page] = await db
    .select({ id: bioPages.id, uid: bioPages.uid, ending: bioPages.customEnding, pageName: bioPages.name, creatorName: profiles.name })
    .from(bioPages)
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .where(and(eq(bioPages.customEnding, ending.toLowerCase()), isNull(bioPages.removedAt), ownerIsActive(bioPages.uid)));
  return page ? { ...page, creatorName: page.creatorName?.trim() || page.pageName } : null;
}

async function liveDealOf(db: Db, opportunityId: string, people: { creator: string; sponsor: string }): Promise<string | null> {
  const [row] = await db
    .select({ id: deals.id })
    .from(deals)
    .where(
      and(
        eq(deals.opportunityId, opportunityId),
        eq(deals.creatorUid, people.creator),
        eq(deals.sponsorUid, people.sponsor),
        inArray(deals.state, [...LIVE_DEAL_STATES]),
      ),
    );
  return row?.id ?? null;
}
