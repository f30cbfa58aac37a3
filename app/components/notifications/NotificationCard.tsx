import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation, useNavigate } from "react-router";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { useHydrated } from "#app/lib/use-hydrated";
import { actionButton, ctaButton, dangerButton } from "./styles";
import { useDoneFor } from "./use-done-for";
import { LOADING_TEXT, NOTIFICATIONS_PATH, notificationsHref, type NotificationCardView, type NotificationAnswer } from "./types";

type Props = {
  notification: NotificationCardView;
  locale: string;
  /** The page of the list this card is on (null: the newest); plain forms come back to it. */
  cursor: string | null;
  /** The server rendered this card's question already (?confirm=<id>, the no-JavaScript path). */
  confirming: boolean;
  /** "Mark all as read" finished at this instant. */
  allReadAt: string | null;
  /** Called once 'Done!' of a delete has been shown: the list drops the card. */
  onGone: (id: string) => void;
  onRead: (id: string) => void;
};

/**
 * One notification (SPEC §2.5, §4 "Notification"). Mark as Read: 'Loading....' →
 * 'Done!' for 2 s → the card shows it read, with its date, and the button
 * disabled. Delete: the question 'Are you sure?' with Confirm and Cancel →
 * 'Loading....' → 'Done!' for 2 s → the card goes. Without JavaScript both are
 * plain forms, and Delete is a link to the page with the question asked.
 */
export function NotificationCard({ notification, locale, cursor, confirming: askedByServer, allReadAt, onGone, onRead }: Props) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const reader = useFetcher<NotificationAnswer>();
  const deleter = useFetcher<NotificationAnswer>();
  const [asking, setAsking] = useState(askedByServer);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const cancelRef = useRef<HTMLAnchorElement>(null);
  const deleteRef = useRef<HTMLAnchorElement>(null);
  const movedFocus = useRef(false);
  const returnTo = notificationsHref(cursor);

  const readAnswer = reader.state === "idle" ? reader.data : undefined;
  const readDone = useDoneFor(readAnswer, () => {
    onRead(notification.id);
    // The button that was pressed is now disabled: focus stays in the card, on its title.
    if (document.activeElement === document.body) titleRef.current?.focus();
  });
  const deleteAnswer = deleter.state === "idle" ? deleter.data : undefined;
  useDoneFor(deleteAnswer, () => onGone(notification.id));
  const failed = [readAnswer, deleteAnswer].find((answer) => answer?.kind === "ERROR");
  const failure = failed?.kind === "ERROR" ? failed.message : null;

  const readByMe = readAnswer?.kind === "SUCCESS" && readAnswer.intent === "read" && !readDone ? readAnswer.readOn : null;
  const readOn = notification.readOn ?? readByMe ?? (notification.unread ? allReadAt : null);
  const isRead = readOn !== null;

  const deleting = deleter.state !== "idle";
  const state = deleteAnswer?.kind === "SUCCESS" ? "deleted" : deleting ? "deleting" : asking && !failure ? "confirming" : "normal";

  useEffect(() => {
    // Focus follows the question: onto Cancel when it appears, back onto Delete when it goes.
    if (!movedFocus.current) return;
    if (state === "confirming") cancelRef.current?.focus();
    if (state === "normal") deleteRef.current?.focus();
  }, [state]);

  const ask = (event: React.MouseEvent) => {
    event.preventDefault();
    movedFocus.current = true;
    setAsking(true);
  };
  const cancel = (event: React.MouseEvent) => {
    event.preventDefault();
    movedFocus.current = true;
    setAsking(false);
    // A question the server asked (?confirm=) leaves the address too, so a reload doesn't ask again.
    if (new URLSearchParams(location.search).has("confirm")) void navigate(returnTo, { replace: true, preventScrollReset: true });
  };

  const titleId = `alert-${notification.id}`;
  const questionId = `alert-${notification.id}-question`;
  const formFields = (intent: "read" | "delete") => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={notification.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
    </>
  );

  return (
    <li aria-labelledby={titleId} className={`flex min-w-0 flex-col rounded-2xl border p-5 shadow-sm ${isRead ? "border-ink/15 bg-white" : "border-primary/40 bg-primary/5"}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={titleId} ref={titleRef} tabIndex={-1} className="min-w-0 break-words text-lg font-bold focus:outline-none">
          {notification.title}
        </h2>
        {isRead ? null : (
          <span className="inline-block whitespace-nowrap rounded-full bg-accent px-3 py-0.5 text-xs font-semibold text-on-accent">Unread</span>
        )}
      </div>
      <p className="mt-1 text-sm text-muted">
        <LocalDateTime iso={notification.created} serverLocale={locale} />
      </p>
      <p className="mt-3 whitespace-pre-line break-words">{notification.message}</p>
      {isRead ? (
        <p className="mt-2 text-sm text-muted">
          Read on <LocalDateTime iso={readOn} serverLocale={locale} />
        </p>
      ) : null}

      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4" aria-live="polite">
        {state === "normal" ? (
          <>
            {notification.cta ? (
              notification.cta.external ? (
                <a href={notification.cta.href} rel="noopener noreferrer" className={ctaButton} aria-describedby={titleId}>
                  {notification.cta.text}
                </a>
              ) : (
                <Link to={notification.cta.href} className={ctaButton} aria-describedby={titleId}>
                  {notification.cta.text}
                </Link>
              )
            ) : null}
            {readDone ? (
              <p role="status" className="font-semibold text-primary">
                Done!
              </p>
            ) : (
              <reader.Form method="post" action={NOTIFICATIONS_PATH}>
                {formFields("read")}
                <button type="submit" className={actionButton} disabled={isRead || reader.state !== "idle"} aria-describedby={titleId}>
                  {reader.state !== "idle" ? LOADING_TEXT : "Mark as Read"}
                </button>
              </reader.Form>
            )}
            <Link
              ref={deleteRef}
              to={notificationsHref(cursor, notification.id)}
              onClick={ask}
              className={dangerButton}
              aria-describedby={titleId}
              preventScrollReset
            >
              Delete
            </Link>
            {failure ? (
              <p role="alert" className="basis-full text-sm font-medium text-red-700">
                {failure}
              </p>
            ) : null}
          </>
        ) : state === "confirming" ? (
          <deleter.Form method="post" action={NOTIFICATIONS_PATH} role="group" aria-labelledby={questionId} className="w-full rounded-xl border border-red-700/40 bg-red-50 p-4">
            <h3 id={questionId} className="font-bold">
              Are you sure?
            </h3>
            <p className="mt-1 text-sm">Please confirm that you would like to delete this notification.</p>
            {formFields("delete")}
            <div className="mt-3 flex flex-wrap gap-2">
              <button type="submit" className={dangerButton} aria-describedby={titleId}>
                Confirm
              </button>
              <Link ref={cancelRef} to={returnTo} onClick={cancel} className={actionButton} aria-describedby={titleId} preventScrollReset>
                Cancel
              </Link>
            </div>
          </deleter.Form>
        ) : state === "deleting" ? (
          <p className="font-semibold text-muted">{LOADING_TEXT}</p>
        ) : (
          <p role="status" className="font-semibold text-primary">
            Done!
          </p>
        )}
      </div>
    </li>
  );
}
