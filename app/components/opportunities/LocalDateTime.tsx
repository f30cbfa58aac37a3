import { dateTimeFormat } from "#app/lib/format";
import { useHydrated } from "#app/lib/use-hydrated";

/**
 * A date and time in the reader's locale and time zone. The server knows
 * neither, so it renders UTC (in the Accept-Language locale) until the
 * browser takes over.
 */
export function LocalDateTime({ iso, serverLocale }: { iso: string; serverLocale: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const text = hydrated
    ? dateTimeFormat(undefined, "mediumDateTimeLocal").format(date)
    : `${dateTimeFormat(serverLocale, "mediumDateTimeUtc").format(date)} UTC`;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {text}
    </time>
  );
}
