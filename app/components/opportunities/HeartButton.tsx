import { useFetcher, useLocation, type FetcherWithComponents } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";

type HeartState = { liked: boolean; totalHearts: number };
type HeartButtonProps = HeartState & { postId: string; title: string };

/**
 * Saves or unsaves a post. A plain form (works without JavaScript); with
 * JavaScript it updates in place, optimistically. Guests are sent to sign in
 * and back (the action does that).
 *
 * The server and the hydrating browser render the plain form; the fetcher
 * takes over once React runs. The markup is the same, and a list page does
 * not pay for 20 fetchers' hooks in the server render, where they do nothing.
 */
export function HeartButton(props: HeartButtonProps) {
  return useHydrated() ? <LiveHeartButton {...props} /> : <HeartForm {...props} Form="form" via="form" />;
}

function LiveHeartButton({ liked, totalHearts, ...rest }: HeartButtonProps) {
  const fetcher = useFetcher<HeartState>();
  const pending = fetcher.state !== "idle";
  // Optimistic while the request runs; then the server's answer.
  const state: HeartState = pending
    ? { liked: !liked, totalHearts: totalHearts + (liked ? -1 : 1) }
    : (fetcher.data ?? { liked, totalHearts });
  return <HeartForm {...rest} {...state} Form={fetcher.Form} via="fetcher" />;
}

function HeartForm({
  postId,
  title,
  liked,
  totalHearts,
  Form,
  via,
}: HeartButtonProps & { Form: "form" | FetcherWithComponents<HeartState>["Form"]; via: "form" | "fetcher" }) {
  const location = useLocation();
  return (
    <Form method="post" action={`/app/opportunities/${postId}/heart`} className="inline-flex">
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="via" value={via} />
      <button
        type="submit"
        aria-pressed={liked}
        aria-label={`${liked ? "Unsave" : "Save"} “${title}”, ${totalHearts} ${totalHearts === 1 ? "heart" : "hearts"}`}
        className="heart-button"
      >
        <span aria-hidden="true" className="heart-icon" />
        <span>{totalHearts}</span>
      </button>
    </Form>
  );
}
