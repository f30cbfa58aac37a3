import { z } from "zod";

/**
 * The bio page an operation is about, by its id. Any string is taken: an id that is no bio page's
 * is not-found in the domain (server/domains/bio/pages.ts), the same answer as another account's
 * page, so the editor's address and the API's path hear one "no such page" whatever they named.
 */
export const bioPageIdSchema = z.string({ error: "pageId must be a string." });
