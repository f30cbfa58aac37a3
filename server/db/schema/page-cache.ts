import { pgSequence } from "drizzle-orm/pg-core";

/**
 * Moves forward after every change a guest page can show (a post created,
 * edited or deleted, a heart). Each app process compares it with the value
 * its cached guest pages were rendered at (server/page-cache/generation.ts),
 * so a change made through one process is never hidden by another's cache.
 * A sequence, not a row: bumping it takes no lock and is seen at once.
 */
export const guestPageGeneration = pgSequence("guest_page_generation");
