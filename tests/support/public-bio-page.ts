import { DEFAULT_THEME } from "#isomorphic/bio-theme";
import type { PublicBioPage } from "#server/domains/bio/public-page";

/**
 * A public bio page as `readPublicPage` answers it, for tests of what the
 * bio host draws: a plain page that takes payments with the default support
 * settings, no photo, goal or wall, in the default theme; `overrides` set
 * what a test is about.
 */
export function publicBioPage(overrides: Partial<PublicBioPage> = {}): PublicBioPage {
  return {
    id: "page_1",
    uid: "user_1",
    customEnding: "maya",
    name: "Maya",
    blurb: "",
    links: [],
    sponsorships: [],
    packages: [],
    tiers: [],
    acceptTips: true,
    tipPresets: [300, 500, 1000],
    tipMinimum: 100,
    takesPayments: true,
    ownerActive: true,
    theme: DEFAULT_THEME,
    photoId: null,
    updatedAt: new Date(0),
    goal: null,
    wall: null,
    wallMembers: null,
    ...overrides,
  };
}
