import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, opportunityPosts } from "#server/platform/db/schema";
import { isPostId } from "#server/domains/opportunities/ids";
import type { ReportTargetType } from "#isomorphic/report-reasons";

type Reader = Pick<Db, "select">;

/** A reportable item as staff and reporters see it named. */
export type ContentItem = {
  type: ReportTargetType;
  /** bio_pages.id or opportunity_posts.id: what reports and the audit log name. */
  id: string;
  ownerUid: string;
  title: string;
  /** Where it is seen: the bio page's ending, the opportunity's id. */
  address: string;
  removedAt: Date | null;
  removedReason: string | null;
  removedBy: string | null;
};

const ENDING = /^[a-z0-9_]{1,99}$/;

function bioItem(row: typeof bioPages.$inferSelect): ContentItem {
  return { type: "bio_page", id: row.id, ownerUid: row.uid, title: row.name, address: row.customEnding, removedAt: row.removedAt, removedReason: row.removedReason, removedBy: row.removedBy };
}

function postItem(row: typeof opportunityPosts.$inferSelect): ContentItem {
  return { type: "opportunity", id: row.id, ownerUid: row.posterUid, title: row.title, address: row.id, removedAt: row.removedAt, removedReason: row.removedReason, removedBy: row.removedBy };
}

/** An item by how it is seen: a bio page by its ending, an opportunity by its id. */
export async function itemByAddress(db: Reader, type: ReportTargetType, address: string): Promise<ContentItem | null> {
  if (type === "bio_page") {
    const ending = address.toLowerCase();
    if (!ENDING.test(ending)) return null;
    const [row] = await db.select().from(bioPages).where(eq(bioPages.customEnding, ending));
    return row ? bioItem(row) : null;
  }
  if (!isPostId(address)) return null;
  const [row] = await db.select().from(opportunityPosts).where(eq(opportunityPosts.id, address));
  return row ? postItem(row) : null;
}

/** An item by the id reports and the audit log keep. */
export async function itemById(db: Reader, type: ReportTargetType, id: string): Promise<ContentItem | null> {
  if (type === "opportunity") return itemByAddress(db, type, id);
  if (id.length > 200) return null;
  const [row] = await db.select().from(bioPages).where(eq(bioPages.id, id));
  return row ? bioItem(row) : null;
}

/**
 * What staff typed or pasted to find an item: a bio page's full address or ending, an
 * opportunity's address or id. Null when it names nothing.
 */
export function parseItemAddress(input: string, bioOrigin: string): { type: ReportTargetType; address: string } | null {
  const text = input.trim();
  if (!text || text.length > 2048) return null;
  const opportunity = /\/app\/opportunities\/([0-9]{10}_[A-Za-z0-9]+)\/?(?:[?#].*)?$/.exec(text);
  if (opportunity) return { type: "opportunity", address: opportunity[1]! };
  if (/^[0-9]{10}_[A-Za-z0-9]+$/.test(text)) return { type: "opportunity", address: text };
  const bioHost = new URL(bioOrigin).host;
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${bioHost}/${text.replace(/^\/+/, "")}`);
    const ending = url.pathname.replace(/^\/+|\/+$/g, "").toLowerCase();
    if (url.host === bioHost && ENDING.test(ending)) return { type: "bio_page", address: ending };
  } catch {
    return null;
  }
  return null;
}
