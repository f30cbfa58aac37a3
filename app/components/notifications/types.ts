export const NOTIFICATIONS_PATH = "/app/notifications";

/** SPEC §9: 'Done!' stays 2 seconds after mark-as-read and delete. */
export const DONE_MS = 2000;

/** SPEC §2.5 "Notifications": the screen's loading text (four dots, as the spec writes it). */
export const LOADING_TEXT = "Loading....";

export type NotificationCardView = {
  id: string;
  title: string;
  message: string;
  unread: boolean;
  created: string;
  readOn: string | null;
  cta: { href: string; text: string; external: boolean } | null;
};

/** What the page's buttons get back when they asked from the page (fetchers): a result of the server's vocabulary. */
export type NotificationAnswer =
  | { kind: "SUCCESS"; intent: "read"; id: string; readOn: string }
  | { kind: "SUCCESS"; intent: "delete"; id: string }
  | { kind: "SUCCESS"; intent: "read-all"; count: number; readOn: string }
  | { kind: "ERROR"; message: string };

/** The page's address for a cursor, optionally asking the delete question of one notification (no-JavaScript path). */
export function notificationsHref(cursor: string | null, confirm?: string): string {
  const params = new URLSearchParams();
  if (cursor) params.set("cursor", cursor);
  if (confirm) params.set("confirm", confirm);
  const query = params.toString();
  return query ? `${NOTIFICATIONS_PATH}?${query}` : NOTIFICATIONS_PATH;
}
