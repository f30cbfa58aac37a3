import { Form, Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { domainError } from "#server/platform/errors";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { disableWebhookEndpoint, enableWebhookEndpoint, type WebhookEndpointFieldErrors } from "#server/platform/outgoing-webhooks/endpoints";
import { changeWebhookEndpoint } from "#server/features/operations/webhook-endpoints/change-endpoint";
import { listWebhookDeliveries, resendWebhookDelivery, sendTestWebhookEvent } from "#server/features/operations/webhook-endpoints/deliveries";
import { deleteWebhookEndpoint, readWebhookEndpoint, rotateWebhookSecret } from "#server/features/operations/webhook-endpoints/endpoints";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { DeliveryLog } from "#app/components/webhooks/DeliveryLog";
import { EventChoices } from "#app/components/webhooks/EventChoices";
import { SecretOnce } from "#app/components/webhooks/SecretOnce";
import { webhookPath, WEBHOOKS_PATH, when } from "#app/components/webhooks/format";
import { formText } from "#app/lib/identity.server";
import { FormNotice, primaryButton, secondaryButton, TextField } from "#page-kit/forms";
import { EndpointUrlField } from "#app/components/webhooks/EndpointUrlField";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import type { Route } from "./+types/webhook-endpoint";
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX } from "#isomorphic/webhook-events";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const caller = pageCaller(user);
  const endpointId = params.endpointId;
  const cursor = new URL(request.url).searchParams.get("before");
  // Another account's endpoint is the 404 page, as an unknown one.
  const [found, log] = await Promise.all([
    runForPage(readWebhookEndpoint, { caller, input: { endpointId }, context }),
    runForPage(listWebhookDeliveries, { caller, input: { endpointId, cursor }, context }),
  ]);
  return { endpoint: found.endpoint, deliveries: log.deliveries, nextCursor: log.nextCursor, targets: context.config.WEBHOOK_TARGETS, olderPage: cursor !== null };
}

type ActionResult = {
  intent?: string;
  error?: string;
  fieldErrors?: WebhookEndpointFieldErrors;
  values?: { url: string; description: string; events: string[] };
  secret?: string;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionResult>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  const endpointId = params.endpointId;
  // A button on an endpoint that is no longer there (deleted in another tab) says so beside the forms, as any other refusal.
  const door = { caller: pageCaller(user), context, notFound: "answer" } as const;
  // Turning on and off stay the page's own calls: a button always applies, where changeWebhookEndpoint's `enabled` does nothing when it is already so.
  const owned = { uid: user.id, endpointId };
  const here = webhookPath(endpointId);
  const done = (message: string, to = here) => redirectWithToast(request, context.sessionSecret, to, { kind: "success", message });
  const refused = (result: { code: Parameters<typeof answerRefusal>[0]["code"]; message: string }) => answerRefusal<ActionResult>(result, { intent, error: result.message });

  switch (intent) {
    case "save": {
      const values = { url: formText(form, "url"), description: formText(form, "description"), events: form.getAll("events").map(String) };
      const result = await runForPage(changeWebhookEndpoint, { ...door, input: { endpointId, ...values } });
      if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { intent, values, ...("fieldErrors" in result ? { fieldErrors: result.fieldErrors } : { error: result.message }) });
      return done("Endpoint saved.");
    }
    case "enable": {
      const result = await enableWebhookEndpoint(context.db, owned);
      return result.kind === "ERROR" ? refused(result) : done("Endpoint turned on. It gets the events that happen from now on.");
    }
    case "disable": {
      const result = await disableWebhookEndpoint(context.db, owned);
      return result.kind === "ERROR" ? refused(result) : done("Endpoint turned off.");
    }
    case "rotate": {
      const result = await runForPage(rotateWebhookSecret, { ...door, input: { endpointId } });
      // The new secret goes back with this answer only: the page shows it now, and never again.
      return result.kind === "ERROR" ? refused(result) : ({ intent, secret: result.secret } as ActionResult);
    }
    case "test": {
      const result = await runForPage(sendTestWebhookEvent, { ...door, input: { endpointId } });
      return result.kind === "ERROR" ? refused(result) : done("Test event queued. It shows in the delivery log below.");
    }
    case "resend": {
      const result = await runForPage(resendWebhookDelivery, { ...door, input: { deliveryId: formText(form, "deliveryId") } });
      if (result.kind === "ERROR") return refused(result);
      return done(result.outcome === "QUEUED" ? "Sent again: the new delivery is at the top of the log." : "That event was still being delivered: it is tried again now.");
    }
    case "delete": {
      const result = await runForPage(deleteWebhookEndpoint, { ...door, input: { endpointId } });
      return result.kind === "ERROR" ? refused(result) : done("Endpoint deleted.", WEBHOOKS_PATH);
    }
    default: {
      const unknown = domainError("invalid-argument", "Unknown action.");
      return answerRefusal<ActionResult>(unknown, { error: unknown.message });
    }
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Webhook endpoint", noindex: true });

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-8 rounded-2xl border border-primary/15 p-6 shadow-sm">
      <h2 id={`${id}-heading`} className="text-xl font-bold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function IntentButton({ intent, label, busyLabel, danger = false, primary = false }: { intent: string; label: string; busyLabel: string; danger?: boolean; primary?: boolean }) {
  const busy = useNavigation().formData?.get("intent") === intent;
  const style = danger
    ? "inline-flex items-center justify-center rounded-full bg-red-700 px-6 py-3 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
    : primary
      ? primaryButton
      : secondaryButton;
  return (
    <Form method="post">
      <button type="submit" name="intent" value={intent} className={style} disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </Form>
  );
}

export default function WebhookEndpoint({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoint, deliveries, nextCursor, targets, olderPage } = loaderData;
  const saving = useNavigation().formData?.get("intent") === "save";
  const values = actionData?.intent === "save" ? actionData.values : undefined;
  const here = webhookPath(endpoint.id);
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <nav aria-label="Breadcrumb">
        <ol className="flex flex-wrap gap-2 text-sm">
          <li>
            <Link to="/app/account">My Account</Link> <span aria-hidden="true">/</span>
          </li>
          <li>
            <Link to={WEBHOOKS_PATH}>Webhooks</Link>
          </li>
        </ol>
      </nav>
      <h1 className="mt-2 text-3xl font-bold">Webhook endpoint</h1>
      <p className="mt-2 font-mono text-lg break-all" data-testid="endpoint-url">
        {endpoint.url}
      </p>
      {endpoint.description ? <p className="mt-1 text-muted">{endpoint.description}</p> : null}

      <div className="mt-4 space-y-3">
        {actionData?.secret ? <SecretOnce secret={actionData.secret} heading="New signing secret" /> : null}
        {actionData?.error ? <FormNotice>{actionData.error}</FormNotice> : null}
        {!endpoint.enabled ? (
          <FormNotice kind="info">
            <p className="font-semibold">This endpoint is off{endpoint.disabledAt ? ` since ${when(endpoint.disabledAt)}` : ""}.</p>
            {endpoint.disabledReason ? <p className="mt-1">{endpoint.disabledReason}</p> : null}
            <p className="mt-1">No events are queued for it while it is off. Turn it on to get the events that happen from then on.</p>
            <div className="mt-3">
              <IntentButton intent="enable" label="Turn on" busyLabel="Turning on..." primary />
            </div>
          </FormNotice>
        ) : endpoint.consecutiveFailures > 0 ? (
          <FormNotice kind="info">
            The last {endpoint.consecutiveFailures === 1 ? "attempt" : `${endpoint.consecutiveFailures} attempts`} to deliver failed
            {endpoint.failingSince ? ` (failing since ${when(endpoint.failingSince)})` : ""}. We keep trying; if it keeps failing, the endpoint is turned off
            and we email you. The delivery log below shows what your server answered.
          </FormNotice>
        ) : null}
      </div>

      <Section title="Delivery log" id="log">
        {olderPage ? (
          <p className="mb-3">
            <Link to={here}>Newest deliveries</Link>
          </p>
        ) : null}
        <DeliveryLog deliveries={deliveries} olderHref={nextCursor ? `${here}?before=${encodeURIComponent(nextCursor)}` : null} enabled={endpoint.enabled} />
      </Section>

      {endpoint.enabled ? (
        <Section title="Send a test event" id="test">
          <p className="mb-3">
            Sends a <code>webhook.test</code> event to this endpoint only, signed like every other, so you can check your receiver.
          </p>
          <IntentButton intent="test" label="Send test event" busyLabel="Sending..." />
        </Section>
      ) : null}

      <Section title="Settings" id="settings">
        <Form method="post" noValidate className="space-y-5" key={endpoint.updatedAt.toString()}>
          <EndpointUrlField adding={false} defaultValue={values?.url ?? endpoint.url} error={actionData?.fieldErrors?.url} targets={targets} maxLength={WEBHOOK_URL_MAX} />
          <TextField
            label="Description (optional)"
            name="description"
            maxLength={WEBHOOK_DESCRIPTION_MAX}
            defaultValue={values?.description ?? endpoint.description}
            error={actionData?.fieldErrors?.description}
          />
          <EventChoices idPrefix="edit" chosen={values?.events ?? endpoint.events} error={actionData?.fieldErrors?.events} />
          <button type="submit" name="intent" value="save" className={primaryButton} disabled={saving}>
            {saving ? "Saving..." : "Save changes"}
          </button>
        </Form>
      </Section>

      <Section title="Signing secret" id="secret">
        <p>
          Every request carries a <code>webhook-signature</code> header made with this endpoint&apos;s secret. A new secret is shown once; the
          current one keeps signing beside it for 24 hours, so you can update your receiver without missing an event.
        </p>
        {endpoint.previousSecretExpiresAt ? <p className="mt-2 font-medium">The previous secret also signs until {when(endpoint.previousSecretExpiresAt)}.</p> : null}
        <div className="mt-4">
          <IntentButton intent="rotate" label="Make a new secret" busyLabel="Making a new secret..." />
        </div>
      </Section>

      {endpoint.enabled ? (
        <Section title="Turn off" id="off">
          <p className="mb-3">Stop sending events here for now, keeping the settings and the log. Events that happen while it is off are not sent later.</p>
          <IntentButton intent="disable" label="Turn off" busyLabel="Turning off..." />
        </Section>
      ) : null}

      <Section title="Delete endpoint" id="delete">
        <p>Deleting the endpoint stops its events at once and deletes its delivery log.</p>
        <details className="mt-3 rounded-lg border border-red-700/30 p-4">
          <summary className="cursor-pointer font-semibold text-red-800">Delete this endpoint</summary>
          <p className="mt-3 font-semibold">Are you sure? This can&apos;t be undone.</p>
          <div className="mt-3">
            <IntentButton intent="delete" label="Yes, delete this endpoint" busyLabel="Deleting..." danger />
          </div>
        </details>
      </Section>
    </div>
  );
}
