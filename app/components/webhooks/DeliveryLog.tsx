import { Form, Link, useNavigation } from "react-router";
import { secondaryButton } from "#page-kit/forms";
import type { WebhookAttemptView, WebhookDeliveryView } from "#server/platform/outgoing-webhooks/delivery-log";
import { DELIVERY_STATUS_TEXT, eventLabel, when } from "./format";

type Attempt = WebhookAttemptView;
type Delivery = WebhookDeliveryView;

const STATUS_STYLE = {
  pending: "bg-accent text-on-accent",
  delivered: "bg-secondary text-ink",
  failed: "bg-red-100 text-red-800",
} as const;

function HeaderList({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="text-sm text-muted">No headers.</p>;
  return (
    <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 font-mono text-xs">
      {entries.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="font-semibold break-all">{name}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Body({ body, label }: { body: string | null; label: string }) {
  if (!body) return <p className="text-sm text-muted">Empty body.</p>;
  return (
    <pre role="region" aria-label={label} tabIndex={0} className="max-h-72 overflow-auto rounded-lg bg-ink/5 p-3 font-mono text-xs whitespace-pre-wrap break-all">
      {body}
    </pre>
  );
}

function outcomeOf(attempt: Attempt): string {
  if (attempt.responseStatus !== null) return `HTTP ${attempt.responseStatus}`;
  return attempt.error ? `No response: ${attempt.error}` : "No response";
}

function AttemptDetails({ attempt, n }: { attempt: Attempt; n: number }) {
  const ok = attempt.responseStatus !== null && attempt.responseStatus >= 200 && attempt.responseStatus < 300;
  return (
    <details className="rounded-lg border border-ink/15 p-3">
      <summary className="cursor-pointer">
        <span className="font-medium">Attempt {n}</span>: <span className={ok ? "text-ink" : "text-red-800"}>{outcomeOf(attempt)}</span>
        <span className="text-sm text-muted">
          {" "}
          · {when(attempt.attemptedAt)} · {attempt.durationMs} ms
        </span>
      </summary>
      <div className="mt-3 grid gap-4 lg:grid-cols-2">
        <section aria-label={`Request of attempt ${n}`}>
          <h4 className="font-semibold">Request</h4>
          <div className="mt-1 space-y-2">
            <HeaderList headers={attempt.requestHeaders} />
            <Body body={attempt.requestBody} label="Request body" />
          </div>
        </section>
        <section aria-label={`Response of attempt ${n}`}>
          <h4 className="font-semibold">Response{attempt.responseStatus !== null ? ` (${attempt.responseStatus})` : ""}</h4>
          <div className="mt-1 space-y-2">
            {attempt.error ? <p className="text-sm text-red-800">{attempt.error}</p> : null}
            {attempt.responseHeaders ? <HeaderList headers={attempt.responseHeaders} /> : null}
            {attempt.responseStatus !== null ? <Body body={attempt.responseBody} label="Response body" /> : null}
          </div>
        </section>
      </div>
    </details>
  );
}

/**
 * An endpoint's deliveries, newest first: each with its status, every attempt (open one to see
 * the request we sent and the response we got) and a Resend button.
 */
export function DeliveryLog({ deliveries, olderHref, enabled }: { deliveries: Delivery[]; olderHref: string | null; enabled: boolean }) {
  const navigation = useNavigation();
  const resending = navigation.formData?.get("intent") === "resend" ? navigation.formData.get("deliveryId") : null;
  if (deliveries.length === 0) {
    return (
      <div className="rounded-xl bg-secondary/40 px-4 py-6 text-center">
        <p className="font-semibold">No deliveries yet</p>
        <p className="mt-1 text-sm text-muted">Each event this endpoint receives shows here, with what we sent and what your server answered. Send a test event to see one now.</p>
      </div>
    );
  }
  return (
    <>
      <ol aria-label="Deliveries, newest first" className="space-y-4">
        {deliveries.map((delivery) => (
          <li key={delivery.id} className="rounded-xl border border-primary/15 p-4" data-testid="delivery">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h3 className="font-semibold">
                  {eventLabel(delivery.eventType)} <code className="text-sm font-normal text-muted">{delivery.eventType}</code>
                </h3>
                <p className="text-sm text-muted">
                  {when(delivery.createdAt)} · <span className="font-mono break-all">{delivery.eventId}</span>
                </p>
              </div>
              <span className={`shrink-0 rounded-full px-3 py-0.5 text-sm font-semibold ${STATUS_STYLE[delivery.status]}`}>
                <span className="sr-only">Status: </span>
                {DELIVERY_STATUS_TEXT[delivery.status]}
              </span>
            </div>
            {delivery.status === "pending" && delivery.nextAttemptAt ? (
              <p className="mt-2 text-sm">{delivery.attempts.length === 0 ? "Queued to send" : "Next try"}: {when(delivery.nextAttemptAt)}</p>
            ) : null}
            {delivery.attempts.length > 0 ? (
              <div className="mt-3 space-y-2">
                {delivery.attempts.map((attempt, i) => (
                  <AttemptDetails key={attempt.id} attempt={attempt} n={i + 1} />
                ))}
              </div>
            ) : (
              <p className="mt-2 text-sm text-muted">Not tried yet.</p>
            )}
            {enabled ? (
              <Form method="post" className="mt-3">
                <input type="hidden" name="deliveryId" value={delivery.id} />
                <button type="submit" name="intent" value="resend" className={`${secondaryButton} px-4 py-2 text-sm`} disabled={resending === delivery.id}>
                  {resending === delivery.id ? "Resending..." : "Resend"}
                  <span className="sr-only"> {eventLabel(delivery.eventType)} of {when(delivery.createdAt)}</span>
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ol>
      {olderHref ? (
        <p className="mt-4">
          <Link to={olderHref}>Older deliveries</Link>
        </p>
      ) : null}
    </>
  );
}
