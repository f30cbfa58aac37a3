import type { Db } from "#server/platform/db/client";
import { directoryCounts, lockedPreview, type DirectoryCounts, type LockedPreview } from "#server/domains/sponsor-directory/evidence";
import { pitchesProTo } from "./audience";

/**
 * What the Pro page shows a person without Pro above the plans: the evidence of what Pro unlocks
 * (the directory's counts and one company with its locked facts), or, for a sponsor, that Pro is
 * not for them (audience.ts).
 */
export type ProPitch = { kind: "evidence"; counts: DirectoryCounts; preview: LockedPreview | null } | { kind: "sponsor" };

export async function proPitchFor(db: Db, uid: string, now = new Date()): Promise<ProPitch> {
  if (!(await pitchesProTo(db, uid))) return { kind: "sponsor" };
  const [counts, preview] = await Promise.all([directoryCounts(db, now), lockedPreview(db)]);
  return { kind: "evidence", counts, preview };
}
