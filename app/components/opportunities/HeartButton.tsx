import { useFetcher, useLocation } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";

type HeartState = { liked: boolean; totalHearts: number };

/**
 * Saves or unsaves a post. A plain form (works without JavaScript); with
 * JavaScript it updates in place, optimistically. Guests are sent to sign in
 * and back (the action does that).
 */
export function HeartButton({ postId, liked, totalHearts, title }: HeartState & { postId: string; title: string }) {
  const fetcher = useFetcher<HeartState>();
  const hydrated = useHydrated();
  const location = useLocation();
  const pending = fetcher.state !== "idle";
  // Optimistic while the request runs; then the server's answer.
  const state: HeartState = pending
    ? { liked: !liked, totalHearts: totalHearts + (liked ? -1 : 1) }
    : (fetcher.data ?? { liked, totalHearts });
  return (
    <fetcher.Form method="post" action={`/app/opportunities/${postId}/heart`} className="inline-flex">
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="via" value={hydrated ? "fetcher" : "form"} />
      <button
        type="submit"
        aria-pressed={state.liked}
        aria-label={`${state.liked ? "Unsave" : "Save"} “${title}”, ${state.totalHearts} ${state.totalHearts === 1 ? "heart" : "hearts"}`}
        className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-semibold ${state.liked ? "border-accent bg-accent/15 text-ink" : "border-ink/20 text-ink hover:border-accent"}`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill={state.liked ? "#fd49a0" : "none"} stroke="#c2185b" strokeWidth="2">
          <path d="M12 21s-7.5-4.6-10-9.3C.4 8.3 2.3 4 6.3 4c2.2 0 3.7 1.3 4.7 2.7C12 5.3 13.5 4 15.7 4c4 0 5.9 4.3 4.3 7.7C19.5 16.4 12 21 12 21z" />
        </svg>
        <span>{state.totalHearts}</span>
      </button>
    </fetcher.Form>
  );
}
