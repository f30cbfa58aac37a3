import type { PublicBioPage } from "#server/bio/public-page";

/** The supporter wall, when the owner turned it on. */
export function wallSection(_page: PublicBioPage): string {
  return "";
}
