import { pgSequence } from "drizzle-orm/pg-core";

/**
 * Moves forward after every change a guest page can show (a post created,
 * edited or deleted, a heart, a bio page…): a trigger on each such table moves
 * it (migration 0022_guest_page_trigger), so no writer can forget to. Each app
 * process compares it with the value its cached guest pages were rendered at
 * (server/platform/page-cache/generation.ts), so a change made through one process is
 * never hidden by another's cache. A sequence, not a row: bumping it waits for
 * no other writer and is seen at once.
 */
export const guestPageGeneration = pgSequence("guest_page_generation");
