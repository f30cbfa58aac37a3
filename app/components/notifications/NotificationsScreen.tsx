import { useCallback, useRef, useState } from "react";
import { Link, useFetcher, useNavigation } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";
import { NotificationCard } from "./NotificationCard";
import { LOADING_TEXT, NOTIFICATIONS_PATH, notificationsHref, type NotificationCardView, type NotificationAnswer } from "./types";
import { actionButton } from "./styles";
import { useDoneFor } from "./use-done-for";

type Props = {
  notifications: NotificationCardView[];
  cursor: string | null;
  nextCursor: string | null;
  confirm: string | null;
  unreadTotal: number;
  locale: string;
};

type NextPage = { notifications: NotificationCardView[]; nextCursor: string | null };

/**
 * SPEC §2.5 "Notifications": the grid of notification cards, "Mark all as read",
 * the empty text and "Load more". Pages after the first are fetched in place
 * and kept here; each card keeps its own read and delete state, so nothing
 * has to be reloaded after an action (the root reloads the menu's count).
 */
export function NotificationsScreen({ notifications, cursor, nextCursor: firstNext, confirm, unreadTotal, locale }: Props) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const more = useFetcher<NextPage>();
  const readAll = useFetcher<NotificationAnswer>();
  const heading = useRef<HTMLHeadingElement>(null);
  const [extra, setExtra] = useState<NotificationCardView[]>([]);
  const [nextCursor, setNextCursor] = useState(firstNext);
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [readIds, setReadIds] = useState<ReadonlySet<string>>(new Set());
  const [allReadAt, setAllReadAt] = useState<string | null>(null);

  // A page fetched by "Load more" joins the list once (state adjusted while rendering, not in an effect).
  const fetched = more.state === "idle" ? more.data : undefined;
  const [taken, setTaken] = useState<NextPage | undefined>(undefined);
  if (fetched && fetched !== taken) {
    setTaken(fetched);
    const known = new Set([...notifications, ...extra].map((notification) => notification.id));
    setExtra([...extra, ...fetched.notifications.filter((notification) => !known.has(notification.id))]);
    setNextCursor(fetched.nextCursor);
  }

  const readAllAnswer = readAll.state === "idle" ? readAll.data : undefined;
  const readAllDone = useDoneFor(readAllAnswer, () => {
    if (readAllAnswer?.kind === "SUCCESS" && readAllAnswer.intent === "read-all") setAllReadAt(readAllAnswer.readOn);
  });

  const onGone = useCallback((id: string) => {
    setGone((current) => new Set(current).add(id));
    // The card that had focus is gone: focus goes back to the top of the list, not to the page's start.
    heading.current?.focus();
  }, []);
  const onRead = useCallback((id: string) => setReadIds((current) => new Set(current).add(id)), []);

  const shown = [...notifications, ...extra].filter((notification) => !gone.has(notification.id));
  const loaded = [...notifications, ...extra];
  // Unread notifications the page knows of: shown ones not yet read here, plus those on pages not loaded.
  const unreadNotLoaded = Math.max(0, unreadTotal - loaded.filter((notification) => notification.unread).length);
  const anyUnread = allReadAt === null && (unreadNotLoaded > 0 || shown.some((notification) => notification.unread && !readIds.has(notification.id)));
  // Another page of the list on its way (not this page again, as after Cancel on a ?confirm= address).
  const pageLoading =
    navigation.state === "loading" &&
    navigation.location.pathname === NOTIFICATIONS_PATH &&
    (new URLSearchParams(navigation.location.search).get("cursor") || null) !== cursor;
  const returnTo = notificationsHref(cursor);

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold focus:outline-none">
            Notifications
          </h1>
          <p className="mt-2 text-muted">What happened on your account: payments, payouts and news, newest first.</p>
        </div>
        <div aria-live="polite">
          {readAllDone ? (
            <p className="font-semibold text-primary">Done!</p>
          ) : anyUnread ? (
            <readAll.Form method="post" action={NOTIFICATIONS_PATH}>
              <input type="hidden" name="intent" value="read-all" />
              <input type="hidden" name="returnTo" value={returnTo} />
              {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
              <button type="submit" className={actionButton} disabled={readAll.state !== "idle"}>
                {readAll.state !== "idle" ? LOADING_TEXT : "Mark all as read"}
              </button>
            </readAll.Form>
          ) : null}
        </div>
      </div>
      {readAllAnswer?.kind === "ERROR" ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {readAllAnswer.message}
        </p>
      ) : null}

      {pageLoading ? (
        <p role="status" className="mt-8 text-lg font-semibold text-muted">
          {LOADING_TEXT}
        </p>
      ) : shown.length === 0 ? (
        <div className="mt-8 rounded-2xl bg-primary/5 p-6">
          <p className="text-lg font-semibold">You don't have any notifications at this time.</p>
          {cursor ? (
            <Link to={NOTIFICATIONS_PATH} className="mt-2 inline-block">
              Back to the newest notifications
            </Link>
          ) : null}
        </div>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Your notifications">
          {shown.map((notification) => (
            <NotificationCard
              key={notification.id}
              notification={notification}
              locale={locale}
              cursor={cursor}
              confirming={confirm === notification.id}
              allReadAt={allReadAt}
              onGone={onGone}
              onRead={onRead}
            />
          ))}
        </ul>
      )}

      {!pageLoading ? (
        <div className="mt-8 flex flex-wrap items-center justify-between gap-4" aria-live="polite">
          {cursor && shown.length > 0 ? <Link to={NOTIFICATIONS_PATH}>Back to the newest notifications</Link> : <span />}
          {more.state !== "idle" ? (
            <p role="status" className="font-semibold text-muted">
              {LOADING_TEXT}
            </p>
          ) : nextCursor ? (
            <Link
              to={notificationsHref(nextCursor)}
              className={actionButton}
              onClick={(event) => {
                // With JavaScript the next page joins this one; without, the link shows it on its own.
                event.preventDefault();
                more.load(notificationsHref(nextCursor));
              }}
            >
              Load more
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
