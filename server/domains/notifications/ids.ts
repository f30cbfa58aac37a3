/** A notification id is a uuid; anything else is refused before it reaches SQL (a cast error would be a 500). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isNotificationId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
