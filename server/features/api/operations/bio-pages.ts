import { z } from "zod";
import { MAX_LINKS, MAX_SPONSORSHIPS } from "#server/domains/bio/form";
import { LINK_TYPES } from "#server/domains/bio/links";
import { MAX_PAGES_PER_OWNER } from "#server/domains/bio/pages";
import { publicBioPage, publicBioPageSummary } from "#server/domains/bio/public-shape";
import { refusal } from "#server/platform/errors";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { bioPageIdSchema } from "#server/features/operations/bio-pages/bio-page-input";
import { listBioPages } from "#server/features/operations/bio-pages/list";
import { readBioPage } from "#server/features/operations/bio-pages/read";
import { updateBioPage } from "#server/features/operations/bio-pages/update";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";

const linkType = z.enum(LINK_TYPES).meta({ description: "One link per type on a page." });

const summarySchema = z
  .object({
    id: z.string(),
    customEnding: z.string().meta({ description: "The page's address on the bio host, after the slash; permanent." }),
    name: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    views: z.number().int().min(0).meta({ description: "Human views counted so far." }),
  })
  .meta({ id: "BioPageSummary", description: "One of your bio pages as your dashboard lists it." });

const bioPageSchema = z
  .object({
    id: z.string(),
    customEnding: z.string().meta({ description: "The page's address on the bio host, after the slash; permanent, so it cannot be changed." }),
    name: z.string(),
    blurb: z.string(),
    links: z.array(
      z.object({
        type: linkType,
        url: z.string(),
        title: z.string().nullable().meta({ description: "What the link says; null shows the type's label." }),
        enabled: z.boolean().meta({ description: "Shown on the page; a switched-off link is kept but hidden." }),
      }),
    ),
    sponsorships: z.array(z.string()).meta({ description: "Ids of your opportunities offered as sponsorship options, in the page's order." }),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: "BioPage",
    description: "The fields of a bio page the API reads and changes. Its look, support block, wall and goal, and photo are edited in the app.",
  });

const changesSchema = z
  .strictObject({
    name: z.string().meta({ description: "Required; under 100 characters." }),
    blurb: z.string().meta({ description: "Under 1000 characters." }),
    links: z
      .array(
        z.object({
          type: linkType,
          url: z.string().min(1).meta({ description: "The link's address, on the network's own domain for a network's type." }),
          title: z.string().optional().meta({ description: "Under 60 characters; left out or empty shows the type's label." }),
          enabled: z.boolean().optional().meta({ description: "false keeps the link but hides it; true by default." }),
        }),
      )
      .meta({ description: `The page's links in the order shown, at most ${MAX_LINKS}; replaces every link. Field errors name the row: \`body.links.2\`.` }),
    sponsorships: z
      .array(z.string())
      .meta({ description: `Ids of your own opportunities to offer, at most ${MAX_SPONSORSHIPS}; replaces the list. New ones need payments set up.` }),
  })
  .partial()
  .meta({
    id: "BioPageChanges",
    description: "A partial update: only the fields you send change. The ending (`customEnding`) is permanent and cannot be sent.",
  });

// The operations' own id schema: what the path names is what they look up.
const idParams = z.object({ id: bioPageIdSchema.meta({ description: "The bio page's id." }) });

// The dashboard's order, last updated first then by id (compared here, by code unit, so a cursor
// and the order it continues agree whatever the database's collation): the cursor is a place in it.
type Place = { updatedAt: string; id: string };
const cursorShape = z.object({ updatedAt: z.iso.datetime(), id: z.string() });
const byPlace = (a: Place, b: Place) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.updatedAt > b.updatedAt ? -1 : 1);
const placeOf = (cursor: string | undefined) => (cursor === undefined ? null : decodeCursor(cursor, cursorShape));

export const bioPageOperations: AnyApiOperation[] = [
  apiOperationOf(listBioPages, {
    id: "listBioPages",
    method: "get",
    path: "/bio-pages",
    tag: "Bio pages",
    summary: "List your bio pages",
    description: `Your own pages, last updated first, as your dashboard lists them (an account has at most ${MAX_PAGES_PER_OWNER}). Needs a verified email address, as the dashboard does.`,
    scope: "bio_pages:read",
    query: pageQuery,
    success: { status: 200, description: "Your pages.", schema: pageOf(summarySchema, "BioPageList") },
    // The cursor is this door's alone: the operation reads every page, the door answers a page of them.
    refuse: ({ query }) => (query.cursor !== undefined && !placeOf(query.cursor) ? refusal("invalid-argument", "INVALID_REQUEST", "This cursor is not one of ours. Start again without one.") : null),
    input: () => ({}),
    answer: ({ pages: owned }, { query }) => {
      // A handful of pages at most: read whole, paged here in the dashboard's order.
      const cursor = placeOf(query.cursor);
      const pages = owned.map(publicBioPageSummary).sort(byPlace);
      const rest = cursor ? pages.filter((page) => byPlace(page, cursor) > 0) : pages;
      const data = rest.slice(0, query.limit);
      const last = data.at(-1);
      const nextCursor = rest.length > query.limit && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null;
      return { data, nextCursor };
    },
  }),
  apiOperationOf(readBioPage, {
    id: "getBioPage",
    method: "get",
    path: "/bio-pages/{id}",
    tag: "Bio pages",
    summary: "Read your bio page",
    description: "One of your own pages, as the editor shows it. Another account's page is `not_found`.",
    scope: "bio_pages:read",
    params: idParams,
    success: { status: 200, description: "The page.", schema: bioPageSchema },
    input: ({ params }) => ({ pageId: params.id }),
    answer: ({ page }) => publicBioPage(page),
  }),
  apiOperationOf(updateBioPage, {
    id: "updateBioPage",
    method: "patch",
    path: "/bio-pages/{id}",
    tag: "Bio pages",
    summary: "Change your bio page",
    description:
      "A partial update of one of your own pages, checked as a whole by the editor's rules and messages (`fields` names each, e.g. `body.links.0`). " +
      "Another account's page is `not_found`. Needs a verified email address.",
    scope: "bio_pages:write",
    params: idParams,
    body: changesSchema,
    success: { status: 200, description: "The page as saved, live at once.", schema: bioPageSchema },
    input: ({ params, body }) => ({ pageId: params.id, changes: body }),
    answer: ({ page }) => publicBioPage(page),
  }),
];
