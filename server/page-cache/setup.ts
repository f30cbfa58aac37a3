import type { Config } from "#server/config";
import type { DatabaseHandle } from "#server/db/client";
import { localGenerationSource, sharedGenerationSource, type GenerationSource } from "./generation";
import { createGuestPageCache, type GuestPageCache } from "./guest-page-cache";

/** Where this process reads the guest pages' generation (the page cache and the bio host share it). */
export function generationSourceFor(database: Pick<DatabaseHandle, "db" | "engine">): GenerationSource {
  // Several processes may share PostgreSQL; PGlite has exactly one (the data folder lock).
  return database.engine === "postgres" ? sharedGenerationSource(database.db) : localGenerationSource();
}

/** The guest page cache for one app process, or null when GUEST_PAGE_CACHE=off. */
export function guestPageCacheFor(
  config: Pick<Config, "GUEST_PAGE_CACHE">,
  database: Pick<DatabaseHandle, "db" | "engine">,
  generation: GenerationSource = generationSourceFor(database),
): GuestPageCache | null {
  if (config.GUEST_PAGE_CACHE === "off") return null;
  return createGuestPageCache({ generation });
}
