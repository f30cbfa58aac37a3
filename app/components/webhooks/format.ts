import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

/** A moment as the delivery log says it, in UTC (the same text on the server and in the browser). */
export function when(date: Date | string): string {
  return `${dateTime.format(new Date(date))} UTC`;
}

export function eventLabel(type: string): string {
  if (type === "webhook.test") return "Test event";
  return WEBHOOK_EVENT_TYPES.find((event) => event.type === type)?.label ?? type;
}

export const DELIVERY_STATUS_TEXT = { pending: "Sending", delivered: "Delivered", failed: "Failed" } as const;

export const WEBHOOKS_PATH = "/app/account/webhooks";
export const webhookPath = (endpointId: string) => `${WEBHOOKS_PATH}/${endpointId}`;
