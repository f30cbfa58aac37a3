/**
 * "Work with me" packages on a bio page: what the server checks and the editor's hints share.
 * A handful keeps the public page short (its size budget) and the choice easy for a sponsor.
 */
export const MAX_PACKAGES_PER_PAGE = 6;
export const MAX_PACKAGE_TITLE = 80;
export const MAX_PACKAGE_DETAILS = 500;
export const MIN_TURNAROUND_DAYS = 1;
export const MAX_TURNAROUND_DAYS = 90;

/** Where a sponsor requests a package (or, with no package, makes an offer) on the app host. */
export function packageRequestPath(ending: string, packageId?: string): string {
  const page = `/app/deals/new?page=${encodeURIComponent(ending)}`;
  return packageId ? `${page}&package=${encodeURIComponent(packageId)}` : page;
}
