import { useEffect, useState } from "react";
import { useFetcher } from "react-router";

const SHOW_SENT_MS = 4_000;

/**
 * SPEC §2.5/§4: 'Sending...' while the request runs, 'Email Sent!' for 4 s,
 * then back. Without JavaScript it is a plain form and the page says what happened.
 */
export function ResetPasswordPill() {
  const fetcher = useFetcher<{ resetSent?: boolean; error?: string }>();
  const [sentAt, setSentAt] = useState<number | null>(null);
  const sending = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.resetSent) return;
    const shownAt = Date.now();
    const show = setTimeout(() => setSentAt(shownAt), 0);
    const hide = setTimeout(() => setSentAt(null), SHOW_SENT_MS);
    return () => {
      clearTimeout(show);
      clearTimeout(hide);
    };
  }, [fetcher.state, fetcher.data]);

  const label = sending ? "Sending..." : sentAt ? "Email Sent!" : "Reset Password";
  return (
    <fetcher.Form method="post">
      <button
        type="submit"
        name="intent"
        value="reset-password"
        disabled={sending || sentAt !== null}
        aria-live="polite"
        className="rounded-full border border-primary px-5 py-2 font-semibold text-primary hover:bg-primary/5 disabled:opacity-80"
      >
        {label}
      </button>
      {fetcher.data?.error ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
