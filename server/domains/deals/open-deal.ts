import { and, eq, inArray } from "drizzle-orm";
import { nanoid } from "nanoid";
import { getOpportunity } from "#server/domains/opportunities/read";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { Db } from "#server/platform/db/client";
import { bioPages, dealActivity, deals, dealTerms, type DealSide } from "#server/platform/db/schema";
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

export type OpenDealRefusal =
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
  const { opener, receiver } = sidesOn(post.kind);
  const bioPageId = opener === "creator" ? await ownBioPage(db, input.uid, input.bioPageId) : null;
  if (bioPageId === false) return fieldRefusal<PitchFieldErrors>({ bioPageId: "Choose one of your own bio pages" });

  const people = { creator: opener === "creator" ? input.uid : post.posterUid, sponsor: opener === "sponsor" ? input.uid : post.posterUid };
  const live = await liveDealOf(db, post.id, people);
  if (live) return refusal("aborted", "ALREADY_OPEN", "You already have a deal open on this opportunity.", { dealId: live });

  const dealId = `deal_${nanoid(16)}`;
  const origin = opener === "creator" ? "application" : "offer";
  try {
    await db.transaction(async (tx) => {
      await tx.insert(deals).values({
        id: dealId,
        origin,
        opportunityId: post.id,
        title: post.title,
        creatorUid: people.creator,
        sponsorUid: people.sponsor,
        openedBy: opener,
        state: "proposed",
        waitingOn: receiver,
        latestVersion: 1,
        pitch: checked.pitch,
        links: checked.links,
        bioPageId,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(dealTerms).values({ dealId, version: 1, proposedBy: opener, ...input.terms, createdAt: now });
      await tx.insert(dealActivity).values({ dealId, seq: 1, action: origin, actorUid: input.uid, fromState: null, toState: "proposed", termsVersion: 1, network: input.network, at: now });
      await tellOtherSide(tx, deps, { recipientUid: post.posterUid, actorUid: input.uid, news: origin, dealId, title: post.title, price: input.terms.price, currency: input.terms.currency });
    });
  } catch (error) {
    // Two submissions at once: the unique index let one through; the other is that one again.
    const winner = await liveDealOf(db, post.id, people);
    if (winner) return refusal("aborted", "ALREADY_OPEN", "You already have a deal open on this opportunity.", { dealId: winner });
    throw error;
  }
  return success({ dealId });
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
        inArray(deals.state, ["proposed", "agreed"]),
      ),
    );
  return row?.id ?? null;
}
