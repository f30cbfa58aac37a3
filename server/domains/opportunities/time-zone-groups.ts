import { canonicalTimeZone, timeZoneChoices } from "./deadline";

/** One choice in the deadline's time zone list: the IANA name sent, and what a person reads. */
export type TimeZoneChoice = { zone: string; label: string };
export type TimeZoneGroup = { region: string; zones: TimeZoneChoice[] };

/**
 * The zones most posters are in, first in the list so few people scroll 400 names. Each is
 * named as people say it; the server's own name for it may be an older alias (Asia/Calcutta).
 */
const COMMON: ReadonlyArray<readonly [zone: string, label: string]> = [
  ["America/Los_Angeles", "Los Angeles (US Pacific)"],
  ["America/Denver", "Denver (US Mountain)"],
  ["America/Chicago", "Chicago (US Central)"],
  ["America/New_York", "New York (US Eastern)"],
  ["America/Toronto", "Toronto"],
  ["America/Mexico_City", "Mexico City"],
  ["America/Sao_Paulo", "São Paulo"],
  ["Europe/London", "London"],
  ["Europe/Paris", "Paris"],
  ["Europe/Berlin", "Berlin"],
  ["Africa/Lagos", "Lagos"],
  ["Africa/Johannesburg", "Johannesburg"],
  ["Asia/Dubai", "Dubai"],
  ["Asia/Kolkata", "India"],
  ["Asia/Singapore", "Singapore"],
  ["Asia/Tokyo", "Tokyo"],
  ["Australia/Sydney", "Sydney"],
  ["Pacific/Auckland", "Auckland"],
];

const REGION_NAMES: Record<string, string> = {
  Africa: "Africa",
  America: "Americas",
  Antarctica: "Antarctica",
  Arctic: "Arctic",
  Asia: "Asia",
  Atlantic: "Atlantic Ocean",
  Australia: "Australia",
  Europe: "Europe",
  Indian: "Indian Ocean",
  Pacific: "Pacific",
};

/** "UTC+05:30", "UTC−08:00", "UTC+00:00": the zone's offset from UTC at `now`. */
export function utcOffsetText(zone: string, now: number): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(now).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const offset = name === "GMT" ? "+00:00" : name.slice(3);
  return `UTC${offset.replace("-", "−")}`;
}

/** "America/Argentina/Buenos_Aires" → "Buenos Aires, Argentina". */
export function placeName(zone: string): string {
  const [, ...rest] = zone.split("/");
  if (rest.length === 0) return zone;
  return rest.reverse().join(", ").replace(/_/g, " ");
}

const OFFSETS_FOR_MS = 15 * 60_000;
let kept: { at: number; groups: TimeZoneGroup[] } | undefined;

/**
 * The deadline's time zone list: the common zones, then every zone the server knows under its
 * region, each with its offset now ("Paris (UTC+01:00)"), places in alphabetical order. UTC and
 * the other zones without a region ("Etc/…") go under "Other". The offsets move with daylight
 * saving, so the list is worked out again every quarter of an hour.
 */
export function timeZoneGroups(now = Date.now()): TimeZoneGroup[] {
  const at = Math.floor(now / OFFSETS_FOR_MS);
  if (kept?.at === at) return kept.groups;
  const known = new Set(timeZoneChoices());
  const labelled = (zone: string, name: string): TimeZoneChoice => ({ zone, label: `${name} (${utcOffsetText(zone, now)})` });

  const common: TimeZoneChoice[] = [labelled("UTC", "UTC")];
  for (const [alias, name] of COMMON) {
    const zone = canonicalTimeZone(alias);
    const named = zone && known.has(alias) ? alias : zone;
    if (named && known.has(named)) common.push(labelled(named, name));
  }

  const byRegion = new Map<string, TimeZoneChoice[]>();
  for (const zone of known) {
    const region = REGION_NAMES[zone.split("/")[0]!] ?? "Other";
    const list = byRegion.get(region) ?? [];
    list.push(labelled(zone, region === "Other" ? zone : placeName(zone)));
    byRegion.set(region, list);
  }
  const regions = [...Object.values(REGION_NAMES), "Other"]
    .filter((region) => byRegion.has(region))
    .map((region) => ({ region, zones: byRegion.get(region)!.sort((a, b) => a.label.localeCompare(b.label, "en")) }));

  const groups = [{ region: "Common time zones", zones: common }, ...regions];
  kept = { at, groups };
  return groups;
}
