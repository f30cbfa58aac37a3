import { Form, Link, useNavigation } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { domainError } from "#server/platform/errors";
import type { WebhookEndpointFieldErrors } from "#server/platform/outgoing-webhooks/endpoints";
import { createWebhookEndpoint, listWebhookEndpoints } from "#server/features/operations/webhook-endpoints/endpoints";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX } from "#isomorphic/webhook-events";
import { EventChoices } from "#app/components/webhooks/EventChoices";
import { SecretOnce } from "#app/components/webhooks/SecretOnce";
import { eventLabel, webhookPath } from "#app/components/webhooks/format";
import { formText } from "#app/lib/identity.server";
import { PageNotice, primaryButton, TextField } from "#page-kit/forms";
import { EndpointUrlField } from "#app/components/webhooks/EndpointUrlField";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT } from "#isomorphic/webhook-events";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import type { Route } from "./+types/webhooks";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const { endpoints } = await runForPage(listWebhookEndpoints, { caller: pageCaller(user), input: null, context });
  return { endpoints, targets: context.config.WEBHOOK_TARGETS };
}

type ActionResult = {
  error?: string;
  fieldErrors?: WebhookEndpointFieldErrors;
  values?: { url: string; description: string; events: string[] };
  created?: { endpointId: string; url: string; secret: string };
};

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionResult>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  if (intent !== "create") {
    const unknown = domainError("invalid-argument", "Unknown action.");
    return answerRefusal<ActionResult>(unknown, { error: unknown.message });
  }
  const values = { url: formText(form, "url"), description: formText(form, "description"), events: form.getAll("events").map(String) };
  const result = await runForPage(createWebhookEndpoint, { caller: pageCaller(user), input: values, context });
  if (result.kind === "ERROR") {
    return answerRefusal<ActionResult>(result, { values, ...("fieldErrors" in result ? { fieldErrors: result.fieldErrors } : { error: result.message }) });
  }
  // The secret goes back with this answer only: the page shows it now, and never again.
  return { created: { endpointId: result.endpoint.id, url: result.endpoint.url, secret: result.secret } } as ActionResult;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Webhooks", noindex: true });

function StatusLine({ endpoint }: { endpoint: Route.ComponentProps["loaderData"]["endpoints"][number] }) {
  if (!endpoint.enabled) return <span className="font-semibold text-red-800">Off{endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}</span>;
  if (endpoint.consecutiveFailures > 0) {
    return <span className="font-semibold text-red-800">On, failing: the last {endpoint.consecutiveFailures === 1 ? "attempt" : `${endpoint.consecutiveFailures} attempts`} failed</span>;
  }
  return <span className="font-semibold">On</span>;
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoints, targets } = loaderData;
  const creating = useNavigation().formData?.get("intent") === "create";
  const created = actionData?.created;
  const full = endpoints.length >= MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT;
  // After a refused form the person's own input stays; after a success the form starts empty again.
  const values = created ? undefined : actionData?.values;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <p>
        <Link to="/app/account">My Account</Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">Webhooks</h1>
      <p className="mt-3 text-muted">
        Webhooks send what happens on your account (a payment, a refund, a new notification…) to an address of yours as it happens, as a signed
        JSON request, so your own tools can act on it. Failed deliveries are tried again for more than a day.
      </p>

      {created ? (
        <div className="mt-6">
          <SecretOnce secret={created.secret} heading="Endpoint added">
            <p className="mt-3">
              <Link to={webhookPath(created.endpointId)}>
                Go to the endpoint<span className="sr-only"> {created.url}</span>
              </Link>
            </p>
          </SecretOnce>
        </div>
      ) : null}
      <PageNotice>{actionData?.error}</PageNotice>

      <section aria-labelledby="endpoints-heading" className="mt-8">
        <h2 id="endpoints-heading" className="text-xl font-bold">
          Your endpoints
        </h2>
        {endpoints.length === 0 ? (
          <div className="mt-4 rounded-xl bg-secondary/40 px-4 py-6 text-center">
            <p className="font-semibold">No endpoints yet</p>
            <p className="mt-1 text-sm text-muted">Add the address of your receiver below to start getting events.</p>
          </div>
        ) : (
          <ul aria-label="Your webhook endpoints" className="mt-4 space-y-3">
            {endpoints.map((endpoint) => (
              <li key={endpoint.id} className="rounded-xl border border-primary/15 p-4">
                <Link to={webhookPath(endpoint.id)} className="font-mono break-all">
                  {endpoint.url}
                </Link>
                {endpoint.description ? <p className="mt-1">{endpoint.description}</p> : null}
                <p className="mt-1 text-sm">
                  <StatusLine endpoint={endpoint} />
                </p>
                <p className="mt-1 text-sm text-muted">{endpoint.events.map(eventLabel).join(", ")}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="add-heading" className="mt-10 rounded-2xl border border-primary/15 p-6 shadow-sm">
        <h2 id="add-heading" className="text-xl font-bold">
          Add an endpoint
        </h2>
        {full ? (
          <p className="mt-3">
            You have {MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT} endpoints, the most an account can have. Delete one you no longer use to add another.
          </p>
        ) : (
          <Form method="post" noValidate className="mt-4 space-y-5" key={created?.endpointId ?? "new"}>
            <EndpointUrlField adding defaultValue={values?.url} error={actionData?.fieldErrors?.url} targets={targets} maxLength={WEBHOOK_URL_MAX} />
            <TextField
              label="Description (optional)"
              name="description"
              maxLength={WEBHOOK_DESCRIPTION_MAX}
              defaultValue={values?.description}
              error={actionData?.fieldErrors?.description}
              hint="A note for yourself, such as what receives these events."
            />
            <EventChoices idPrefix="new" chosen={values?.events ?? []} error={actionData?.fieldErrors?.events} />
            <button type="submit" name="intent" value="create" className={primaryButton} disabled={creating}>
              {creating ? "Adding..." : "Add endpoint"}
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}
