import { dateTimeFormat, formatZonedDateTime } from "#isomorphic/format";
import { useHydrated } from "#app/lib/use-hydrated";

type Props = {
  iso: string;
  serverLocale: string;
  /**
   * The zone the time belongs to (a deadline's poster's zone): shown on that
   * clock with the zone's name, identically on the server and in the browser.
   * Without it, the server renders UTC until the browser shows its own zone.
   */
  timeZone?: string | null;
  /** With `timeZone`: once the browser runs, also say the time on the reader's clock when it differs. */
  withReaderTime?: boolean;
};

/** A date and time for people: in a given zone, or in the reader's locale and zone. */
export function LocalDateTime({ iso, serverLocale, timeZone, withReaderTime = false }: Props) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  if (timeZone) {
    const text = formatZonedDateTime(date, timeZone, serverLocale);
    const readerZone = hydrated && withReaderTime ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
    const readerText = readerZone ? formatZonedDateTime(date, readerZone, serverLocale) : text;
    return (
      <>
        {/* Same locale and zone on both sides; the warning is suppressed only for ICU data that differs by version. */}
        <time dateTime={iso} suppressHydrationWarning>
          {text}
        </time>
        {readerText !== text ? <span className="text-muted"> ({readerText} your time)</span> : null}
      </>
    );
  }
  const text = hydrated
    ? dateTimeFormat(undefined, "mediumDateTimeLocal").format(date)
    : `${dateTimeFormat(serverLocale, "mediumDateTimeUtc").format(date)} UTC`;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {text}
    </time>
  );
}
