import { z } from "zod";
import { requireVerifiedEmail } from "#server/domains/accounts/verified-email";
import { MAX_LINKS, MAX_SPONSORSHIPS, parseBioPageForm } from "#server/domains/bio/form";
import { LINK_TYPES } from "#server/domains/bio/links";
import { editBioPage, getOwnPage, listOwnPages, MAX_PAGES_PER_OWNER } from "#server/domains/bio/pages";
import { bioFormInputOf, publicBioPage, publicBioPageSummary } from "#server/domains/bio/public-shape";
import { fieldRefusal, refusal, success } from "#server/platform/errors";
import { defineApiOperation, type AnyApiOperation } from "#server/features/api/operation";
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

const idParams = z.object({ id: z.string().meta({ description: "The bio page's id." }) });

// The dashboard's order, last updated first then by id (compared here, by code unit, so a cursor
// and the order it continues agree whatever the database's collation): the cursor is a place in it.
type Place = { updatedAt: string; id: string };
const cursorShape = z.object({ updatedAt: z.iso.datetime(), id: z.string() });
const byPlace = (a: Place, b: Place) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.updatedAt > b.updatedAt ? -1 : 1);

export const bioPageOperations: AnyApiOperation[] = [
  defineApiOperation({
    id: "listBioPages",
    method: "get",
    path: "/bio-pages",
    tag: "Bio pages",
    summary: "List your bio pages",
    description: `Your own pages, last updated first, as your dashboard lists them (an account has at most ${MAX_PAGES_PER_OWNER}). Needs a verified email address, as the dashboard does.`,
    scope: "bio_pages:read",
    query: pageQuery,
    success: { status: 200, description: "Your pages.", schema: pageOf(summarySchema, "BioPageList") },
    refusals: ["permission-denied"],
    async handle({ caller, query, deps }) {
      const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor, cursorShape);
      if (query.cursor !== undefined && !cursor) return refusal("invalid-argument", "INVALID_REQUEST", "This cursor is not one of ours. Start again without one.");
      const verified = await requireVerifiedEmail(deps.db, caller.uid);
      if (verified.kind === "ERROR") return verified;
      // A handful of pages at most: read whole, paged here in the dashboard's order.
      const pages = (await listOwnPages(deps.db, caller.uid)).map(publicBioPageSummary).sort(byPlace);
      const rest = cursor ? pages.filter((page) => byPlace(page, cursor) > 0) : pages;
      const data = rest.slice(0, query.limit);
      const last = data.at(-1);
      const nextCursor = rest.length > query.limit && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null;
      return success({ body: { data, nextCursor } });
    },
  }),
  defineApiOperation({
    id: "getBioPage",
    method: "get",
    path: "/bio-pages/{id}",
    tag: "Bio pages",
    summary: "Read your bio page",
    description: "One of your own pages, as the editor shows it. Another account's page is `not_found`.",
    scope: "bio_pages:read",
    params: idParams,
    success: { status: 200, description: "The page.", schema: bioPageSchema },
    refusals: ["permission-denied", "not-found"],
    async handle({ caller, params, deps }) {
      const verified = await requireVerifiedEmail(deps.db, caller.uid);
      if (verified.kind === "ERROR") return verified;
      const own = await getOwnPage(deps.db, { uid: caller.uid }, params.id);
      return own.kind === "ERROR" ? own : success({ body: publicBioPage(own.page) });
    },
  }),
  defineApiOperation({
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
    refusals: ["invalid-argument", "permission-denied", "not-found"],
    async handle({ caller, params, body, deps }) {
      const verified = await requireVerifiedEmail(deps.db, caller.uid);
      if (verified.kind === "ERROR") return verified;
      const owner = { uid: caller.uid };
      const stored = await getOwnPage(deps.db, owner, params.id);
      if (stored.kind === "ERROR") return stored;
      const parsed = parseBioPageForm(bioFormInputOf(stored.page, body));
      if (parsed.kind === "ERROR") return parsed;
      const saved = await editBioPage(deps.db, owner, params.id, parsed.form);
      // A refusal about one field (a sponsorship not yours) names it, as the form's own do.
      if (saved.kind === "ERROR") return saved.fieldErrors ? fieldRefusal(saved.fieldErrors) : saved;
      const page = await getOwnPage(deps.db, owner, params.id);
      return page.kind === "ERROR" ? page : success({ body: publicBioPage(page.page) });
    },
  }),
];
