import { data } from "react-router";
import { externalSponsors, tags } from "#server/db/schema";
import { namePrefixes, nameWords } from "#server/sponsors/names";
import type { Route } from "./+types/sponsors";

/**
 * TEST SETUP ONLY (ENABLE_TEST_ROUTES, loopback + secret): adds `count`
 * (1…60) directory companies named "<prefix> 01" … with the tag `tag` (made a
 * sponsor tag), the first two in the preview sample. Each spec passes its own
 * random prefix and tag, so specs never see one another's companies in a
 * search. Returns the rows' ids and names in list order.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const params = new URL(request.url).searchParams;
  const prefix = params.get("prefix") ?? "";
  const tag = params.get("tag") ?? "";
  const count = Number(params.get("count") ?? "0");
  if (!/^[a-z][a-z0-9]{2,30}$/.test(prefix) || !/^[a-z][a-z0-9 ]{2,40}$/.test(tag) || !Number.isInteger(count) || count < 1 || count > 60) {
    throw data("prefix (lowercase letters/digits), tag and count (1…60) please", { status: 400 });
  }
  await context.db.insert(tags).values({ kind: "external_sponsor", name: tag }).onConflictDoNothing();
  const added = new Date();
  const rows = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(2, "0");
    const name = `${prefix} ${n}`;
    const words = nameWords(name);
    return {
      id: `${prefix}-${n}`,
      name,
      nameArray: words,
      namePrefixes: namePrefixes(words),
      tags: [tag],
      blurb: `${name} sponsors creators in the end-to-end suite.`,
      preview: `${name} works with creators.`,
      inPreviewSample: i < 2,
      website: `https://${prefix}-${n}.example`,
      details: { sponsors: "Channels of every size.", formats: ["Integrated video read", "Affiliate code"], apply: "Through their creator program.", applyUrl: `https://${prefix}-${n}.example/creators` },
      addedAt: new Date(added.getTime() + i),
    };
  });
  await context.db.insert(externalSponsors).values(rows).onConflictDoNothing();
  return Response.json(rows.map((row) => ({ id: row.id, name: row.name })));
}
