import type { MouseEvent } from "react";
import { useFetcher, useLocation } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";

type HeartState = { liked: boolean; totalHearts: number };
type HeartButtonProps = HeartState & { postId: string; title: string };

/** The form every heart button of a page submits when JavaScript is off. */
export const HEART_FORM_ID = "heart-form";

const heartAction = (postId: string) => `/app/opportunities/${postId}/heart`;

/** Where the heart action sends the person back to: this page, with its filters. */
function useReturnTo(): string {
  const { pathname, search } = useLocation();
  return `${pathname}${search}`;
}

/**
 * Render once on every page that shows heart buttons. Without JavaScript a
 * heart button submits this form to its own post's action (`formaction`), so
 * the page says where to come back to once, not once per card: a list page's
 * 20 forms with their hidden fields were about 30 % of the cards' markup and
 * ~0.3 ms of the server's time rendering them (bench/README.md).
 */
export function HeartForm() {
  const returnTo = useReturnTo();
  return (
    <form id={HEART_FORM_ID} method="post" hidden>
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="via" value="form" />
    </form>
  );
}

/**
 * Saves or unsaves a post. Without JavaScript it submits the page's
 * HeartForm; with JavaScript it updates in place, optimistically. Guests are
 * sent to sign in and back (the action does that).
 *
 * The server and the hydrating browser render the plain button; the fetcher
 * takes over once React runs, with the same markup. A list page does not pay
 * for 20 fetchers' hooks in the server render, where they do nothing.
 */
export function HeartButton(props: HeartButtonProps) {
  return useHydrated() ? <LiveHeartButton {...props} /> : <HeartButtonView {...props} />;
}

function LiveHeartButton({ liked, totalHearts, ...rest }: HeartButtonProps) {
  const fetcher = useFetcher<HeartState>();
  const returnTo = useReturnTo();
  const pending = fetcher.state !== "idle";
  // Optimistic while the request runs; then the server's answer.
  const state: HeartState = pending
    ? { liked: !liked, totalHearts: totalHearts + (liked ? -1 : 1) }
    : (fetcher.data ?? { liked, totalHearts });
  function submit(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    // One toggle at a time: a second click while the first is in flight would race it at the
    // server, and the answer that arrived last, not the toggle that ran last, would stay on screen.
    if (pending) return;
    void fetcher.submit({ via: "fetcher", returnTo }, { method: "post", action: heartAction(rest.postId) });
  }
  return <HeartButtonView {...rest} {...state} onClick={submit} />;
}

function HeartButtonView({
  postId,
  title,
  liked,
  totalHearts,
  onClick,
}: HeartButtonProps & { onClick?: (event: MouseEvent<HTMLButtonElement>) => void }) {
  return (
    <button
      type="submit"
      form={HEART_FORM_ID}
      formAction={heartAction(postId)}
      aria-pressed={liked}
      aria-label={`${liked ? "Unsave" : "Save"} “${title}”, ${totalHearts} ${totalHearts === 1 ? "heart" : "hearts"}`}
      className="heart-button"
      onClick={onClick}
    >
      {totalHearts}
    </button>
  );
}
