import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { safeRedirectPath } from "#server/platform/http/redirects";
import type { DomainError } from "#server/platform/errors";
import { deleteNotification } from "#server/features/operations/notifications/delete";
import { listNotifications } from "#server/features/operations/notifications/list";
import { markAllNotificationsRead, markNotificationRead } from "#server/features/operations/notifications/mark-read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { countUnreadNotifications } from "#server/domains/notifications/unread";
import { NotificationsScreen } from "#app/components/notifications/NotificationsScreen";
import { NOTIFICATIONS_PATH, type NotificationAnswer } from "#app/components/notifications/types";
import { localeFrom } from "#isomorphic/format";
import { formText } from "#app/lib/identity.server";
import { pageMeta } from "#page-kit/meta";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { Route } from "./+types/notifications";
import { notificationCard } from "./view.server";
import { answerRefusal, refuse, refuseWith, requireForm } from "#page-kit/respond.server";

/**
 * /app/notifications (SPEC §2.2, §2.5 "Notifications", §4): the reader's
 * notifications, newest first, 12 a page (`?cursor=` is the next page; "Load more"
 * fetches it in place). SPEC §4 "Email verification": only a verified reader.
 * The listNotifications operation (server/features/operations/notifications/).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  const cursor = url.searchParams.get("cursor") || null;
  const page = await runForPage(listNotifications, { caller: pageCaller(user), input: { cursor }, context });
  if (page.kind === "ERROR") refuseWith(page);
  return {
    notifications: page.notifications.map(notificationCard),
    cursor,
    nextCursor: page.nextCursor,
    confirm: url.searchParams.get("confirm"),
    unreadTotal: await countUnreadNotifications(context.db, user.id),
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

const TOASTS = {
  read: "Done! The notification is marked as read.",
  delete: "Done! The notification is deleted.",
  "read-all": "Done! All your notifications are marked as read.",
} as const;

/**
 * POST intent=read|delete (+ id) or intent=read-all (SPEC §7.3 markAsRead,
 * deleteNotification). The page's buttons ask from the page (via=fetcher) and show
 * 'Done!'; without JavaScript the form comes back to the page with a toast.
 * Another person's notification, or no notification at all, is 404 and nothing changes.
 * The operations markNotificationRead, deleteNotification and markAllNotificationsRead; which one
 * the form asks for (`intent`) and how the answer is shown are the page's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const intent = formText(form, "intent");
  const id = formText(form, "id");
  const viaPage = formText(form, "via") === "fetcher";
  const back = safeRedirectPath(formText(form, "returnTo"), NOTIFICATIONS_PATH);
  const backToList = back === NOTIFICATIONS_PATH || back.startsWith(`${NOTIFICATIONS_PATH}?`) ? back : NOTIFICATIONS_PATH;

  // The card's own refusal (not-found) is said on the card or as the 404 page, by `refused` below.
  const run = { caller: pageCaller(user), context, notFound: "answer" } as const;
  let answer: NotificationAnswer;
  if (intent === "read") {
    const result = await runForPage(markNotificationRead, { ...run, input: { notificationId: id } });
    if (result.kind === "ERROR") return refused(viaPage, result);
    answer = { kind: "SUCCESS", intent, id: result.id, readOn: result.readOn.toISOString() };
  } else if (intent === "delete") {
    const result = await runForPage(deleteNotification, { ...run, input: { notificationId: id } });
    if (result.kind === "ERROR") return refused(viaPage, result);
    answer = { kind: "SUCCESS", intent, id: result.id };
  } else if (intent === "read-all") {
    const result = await runForPage(markAllNotificationsRead, { ...run, input: {} });
    answer = { kind: "SUCCESS", intent, count: result.count, readOn: result.readOn.toISOString() };
  } else {
    refuse("invalid-argument", "Unknown action");
  }
  if (viaPage) return data<NotificationAnswer>(answer);
  return redirectWithToast(request, context.sessionSecret, backToList, { kind: "success", message: TOASTS[intent] });
}

function refused(viaPage: boolean, refusal: DomainError) {
  // From the page the card says it in place; a plain form gets the refusal's error page (not found).
  if (viaPage) return answerRefusal<NotificationAnswer>(refusal, { kind: "ERROR", message: refusal.message });
  refuseWith(refusal);
}

/**
 * The page keeps its cards through its own actions (each card shows 'Done!'
 * for 2 s and then updates or goes by itself), so it does not reload them;
 * the root still revalidates, which refreshes the menu's unread count.
 */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formAction === NOTIFICATIONS_PATH ? false : defaultShouldRevalidate;
}

/** A person's notifications: never kept by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Notifications", noindex: true });

export default function Notifications({ loaderData }: Route.ComponentProps) {
  // A new first page (another cursor, a reload) starts the screen's local state afresh.
  return <NotificationsScreen key={loaderData.cursor ?? "newest"} {...loaderData} />;
}
