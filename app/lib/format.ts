// Intl formatters are costly to build (ICU data lookups) and cheap to reuse:
// a list page formats dozens of dates and amounts, so each distinct
// (locale, options) formatter is built once per process.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

/** Formats an ISO date (YYYY-MM-DD) for humans, independent of server time zone. */
export function formatIsoDate(isoDate: string, locale = "en-US"): string {
  return dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));
}

/** Whole-currency display of minor units, e.g. 150000 → "$1,500". */
export function formatMoney(minorUnits: number, currency = "usd", locale = "en-US"): string {
  return numberFormat(locale, {
    style: "currency",
    currency: currency.toUpperCase(),
    maximumFractionDigits: minorUnits % 100 === 0 ? 0 : 2,
  }).format(minorUnits / 100);
}

const supportedLocales = new Map<string, boolean>();

/** The reader's first Accept-Language locale that Intl supports, else en-US. */
export function localeFrom(acceptLanguage: string | null): string {
  for (const part of (acceptLanguage ?? "").split(",").slice(0, 10)) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*" || tag.length > 35) continue;
    let supported = supportedLocales.get(tag);
    if (supported === undefined) {
      try {
        supported = Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
      } catch {
        supported = false; // not a valid language tag
      }
      if (supportedLocales.size < 1000) supportedLocales.set(tag, supported);
    }
    if (supported) return tag;
  }
  return "en-US";
}
