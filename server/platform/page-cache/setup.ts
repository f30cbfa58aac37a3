import type { Config } from "#server/platform/config";
import type { DatabaseHandle } from "#server/platform/db/client";
import { embeddedGenerationSource, pushedGenerationSource, type GenerationSource, type RunningGenerationSource } from "./generation";
import { createGuestPageCache, type GuestPageCache } from "./guest-page-cache";

/** Where this process reads the guest pages' generation (the page cache, the bio host and the tag catalogue share it). */
export async function startGenerationSource(database: Pick<DatabaseHandle, "db" | "engine" | "listen">): Promise<RunningGenerationSource> {
  // Several processes may share PostgreSQL; PGlite has exactly one (the data folder lock).
  return database.engine === "postgres" ? pushedGenerationSource(database) : embeddedGenerationSource(database);
}

/** The guest page cache for one app process, or null when GUEST_PAGE_CACHE=off. */
export function guestPageCacheFor(
  config: Pick<Config, "GUEST_PAGE_CACHE">,
  generation: GenerationSource,
  onLookup?: (outcome: "hit" | "miss" | "stale") => void,
): GuestPageCache | null {
  if (config.GUEST_PAGE_CACHE === "off") return null;
  return createGuestPageCache({ generation, onLookup });
}
