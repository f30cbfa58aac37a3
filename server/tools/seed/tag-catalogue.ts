import type { TagKind } from "#server/platform/db/schema";

/** The opportunity filter groups of SPEC §3 ("all_tags"), lower-case as stored on posts. */
export const US_STATES = [
  "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware",
  "district of columbia", "florida", "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa",
  "kansas", "kentucky", "louisiana", "maine", "maryland", "massachusetts", "michigan", "minnesota",
  "mississippi", "missouri", "montana", "nebraska", "nevada", "new hampshire", "new jersey",
  "new mexico", "new york", "north carolina", "north dakota", "ohio", "oklahoma", "oregon",
  "pennsylvania", "rhode island", "south carolina", "south dakota", "tennessee", "texas", "utah",
  "vermont", "virginia", "washington", "west virginia", "wisconsin", "wyoming",
];

export const SPONSORSHIP_TYPES = [
  "youtube sponsorship", "streamer sponsorship", "podcast sponsorship", "influencer sponsorship",
  "tiktok sponsorship", "instagram sponsorship", "blog sponsorship", "newsletter sponsorship",
  "event sponsorship", "esports sponsorship",
];

export const INDUSTRIES = [
  "technology", "gaming", "food and beverage", "health and fitness", "beauty", "fashion", "finance",
  "education", "travel", "outdoors", "music", "home and diy", "pets", "automotive", "nonprofit",
];

export const OTHER_TAGS = [
  "product seeding", "paid placement", "affiliate", "long-term partnership", "giveaway",
  "local business", "student friendly", "small creators welcome",
];

export const EVENT_DATES = [
  "january", "february", "march", "april", "may", "june", "july", "august", "september",
  "october", "november", "december",
];

export const OPPORTUNITY_TAG_GROUPS: Record<Exclude<TagKind, "external_sponsor">, string[]> = {
  sponsorship_type: SPONSORSHIP_TYPES,
  state: US_STATES,
  industry: INDUSTRIES,
  other: OTHER_TAGS,
  event_date: EVENT_DATES,
};
