import Stripe from "stripe";
import { STRIPE_API_VERSION } from "#server/providers/payments/stripe/client";
import { fixture, newId, nowSeconds } from "#tests/support/stripe-emulator/fixtures";

export type EmulatorEvent = Stripe.Event & { account?: string };

export type SignedDelivery = { eventId: string; type: string; payload: string; header: string };

export type Delivery = { eventId: string; type: string; status: number | "error"; at: number };

/** An event as Stripe sends it: the object as it is now, our pinned API version, and the connected account for Connect events. */
export function newEvent(type: Stripe.Event.Type, object: { id: string }, options: { account?: string; idempotencyKey?: string | null } = {}): EmulatorEvent {
  const event = {
    ...fixture("event"),
    id: newId("evt"),
    api_version: STRIPE_API_VERSION,
    created: nowSeconds(),
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: options.idempotencyKey ? newId("req", 14) : null, idempotency_key: options.idempotencyKey ?? null },
    type,
    ...(options.account && { account: options.account }),
  };
  return event as unknown as EmulatorEvent;
}

export class WebhookSender {
  readonly events: EmulatorEvent[] = [];
  readonly deliveries: Delivery[] = [];

  constructor(
    private readonly options: { secret: string; connectSecret?: string; url?: string },
  ) {}

  get url() {
    return this.options.url;
  }

  set url(url: string | undefined) {
    this.options.url = url;
  }

  /** The body and `Stripe-Signature` header Stripe would post for `event`; `timestamp` (seconds) makes stale ones. */
  sign(event: EmulatorEvent, options: { timestamp?: number; secret?: string } = {}): SignedDelivery {
    const payload = JSON.stringify(event, null, 2);
    const secret = options.secret ?? (event.account && this.options.connectSecret ? this.options.connectSecret : this.options.secret);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: options.timestamp ?? nowSeconds() });
    return { eventId: event.id, type: event.type, payload, header };
  }

  /** Posts each event to the configured URL, in order, once (Stripe retries; a test redelivers with `deliver`). */
  async deliver(events: EmulatorEvent[]): Promise<Delivery[]> {
    const url = this.options.url;
    if (!url) return [];
    const results: Delivery[] = [];
    for (const event of events) {
      const signed = this.sign(event);
      let status: Delivery["status"];
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": signed.header, "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
          body: signed.payload,
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = "error";
      }
      const delivery = { eventId: event.id, type: event.type, status, at: Date.now() };
      this.deliveries.push(delivery);
      results.push(delivery);
    }
    return results;
  }

  record(event: EmulatorEvent): EmulatorEvent {
    this.events.push(event);
    return event;
  }
}
