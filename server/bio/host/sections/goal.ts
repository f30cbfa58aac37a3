import type { PublicBioPage } from "#server/bio/public-page";

/** The page's goal bar, when it has a goal. */
export function goalSection(_page: PublicBioPage): string {
  return "";
}
