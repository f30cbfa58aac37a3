import { useEffect, useState } from "react";

/** Served by server/domains/notifications/http-stream.ts (before compression, outside React Router). */
export const NOTIFICATION_STREAM_URL = "/api/notifications/stream";

/** `data: {"count":N}` of an `unread` event, or null for anything else. */
export function parseUnreadEvent(data: string): number | null {
  try {
    const count = (JSON.parse(data) as { count?: unknown }).count;
    return typeof count === "number" && Number.isInteger(count) && count >= 0 ? count : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in user's unread count, kept live by one EventSource per tab (SPEC §7.2 "unread_alerts
 * by uid"). Starts from the server-rendered number, follows every page load's fresh number, and in
 * between takes whatever the stream says. EventSource reconnects by itself after a drop (the server
 * sends the current count on every connection); a 401 after sign-out ends it for good. Pages that
 * ship no JavaScript never run this: they keep the number they were rendered with.
 * `live` is true once a number came from the stream, so only those changes are announced.
 */
export function useLiveUnreadCount(rendered: number): { count: number; live: boolean } {
  const [state, setState] = useState({ count: rendered, live: false, rendered });
  // A page load brought a fresh number: it wins (adjusting state during render, as React advises).
  if (state.rendered !== rendered) setState({ count: rendered, live: false, rendered });

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    const open = () => {
      source?.close();
      source = new EventSource(NOTIFICATION_STREAM_URL);
      source.addEventListener("unread", (event) => {
        const count = parseUnreadEvent((event as MessageEvent<string>).data);
        if (count !== null) setState((previous) => (previous.count === count ? previous : { ...previous, count, live: true }));
      });
    };
    // A page kept in the back/forward cache must not hold a connection; it opens a new one when shown.
    const onHide = () => {
      source?.close();
      source = null;
    };
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) open();
    };
    open();
    window.addEventListener("pagehide", onHide);
    window.addEventListener("pageshow", onShow);
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("pageshow", onShow);
      source?.close();
    };
  }, []);

  return { count: state.count, live: state.live };
}
