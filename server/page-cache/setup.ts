import type { Config } from "#server/config";
import type { DatabaseHandle } from "#server/db/client";
import { localGenerationSource, sharedGenerationSource } from "./generation";
import { createGuestPageCache, type GuestPageCache } from "./guest-page-cache";

/** The guest page cache for one app process, or null when GUEST_PAGE_CACHE=off. */
export function guestPageCacheFor(config: Pick<Config, "GUEST_PAGE_CACHE">, database: Pick<DatabaseHandle, "db" | "engine">): GuestPageCache | null {
  if (config.GUEST_PAGE_CACHE === "off") return null;
  // Several processes may share PostgreSQL; PGlite has exactly one (the data folder lock).
  const generation = database.engine === "postgres" ? sharedGenerationSource(database.db) : localGenerationSource();
  return createGuestPageCache({ generation });
}
