import { Link } from "react-router";
import { createApiKey, listApiKeys, revokeApiKey, type NewApiKey } from "#server/domains/api-keys/keys";
import { apiKeyPepper, type ApiKeyMode } from "#server/domains/api-keys/key-format";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { domainError } from "#server/platform/errors";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { ApiKeyList, type ApiKeyRow } from "#app/components/api-keys/ApiKeyList";
import { CreateApiKeyForm, type CreateApiKeyState } from "#app/components/api-keys/CreateApiKeyForm";
import { NewApiKeyShown } from "#app/components/api-keys/NewApiKeyShown";
import { formText } from "#app/lib/identity.server";
import { PageNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import { API_RESOURCES } from "#isomorphic/api-scopes";
import { readAccountSectionForm } from "#app/lib/account-section.server";
import type { Route } from "./+types/api-keys";

const HERE = "/app/account/api-keys";

/** Keys made here work on this server only: test keys under the payment sandbox, live ones under Stripe. */
function keyModeOf(context: Route.LoaderArgs["context"]): ApiKeyMode {
  return context.payments.name === "sandbox" ? "test" : "live";
}

const when = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date) + " UTC";
const day = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(date);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const keys = await listApiKeys(context.db, user.id);
  const now = Date.now();
  const rows: ApiKeyRow[] = keys.map((key) => ({
    id: key.id,
    name: key.name,
    display: key.display,
    scopes: key.scopes,
    created: day(key.createdAt),
    expires: key.expiresAt ? day(key.expiresAt) : null,
    expired: key.expiresAt !== null && key.expiresAt.getTime() <= now,
    lastUsed: key.lastUsedAt ? when(key.lastUsedAt) : null,
    revoked: key.revokedAt ? when(key.revokedAt) : null,
  }));
  return { rows, mode: keyModeOf(context), origin: context.config.PUBLIC_ORIGIN };
}

type ActionResult = { created?: { key: string; name: string }; create?: CreateApiKeyState; error?: string };

/** The form's per-resource choice ("none", "read", "write") as scopes; "write" includes reading. */
function scopesFrom(form: FormData): string[] {
  return API_RESOURCES.flatMap((resource) => {
    const access = formText(form, `access-${resource.id}`);
    if (access === "read") return [`${resource.id}:read`];
    if (access === "write") return [`${resource.id}:read`, `${resource.id}:write`];
    return [];
  });
}

function newKeyFrom(form: FormData): NewApiKey {
  const expiry = formText(form, "expiresInDays");
  return { name: formText(form, "name"), scopes: scopesFrom(form), expiresInDays: expiry === "" || expiry === "never" ? null : Number(expiry) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const post = await readAccountSectionForm<ActionResult>(request, context);
  if (post.refused) return post.refused;
  const { user, form, intent } = post;
  if (intent === "create") {
    const result = await createApiKey(context.db, { uid: user.id, mode: keyModeOf(context), pepper: apiKeyPepper(context.sessionSecret) }, newKeyFrom(form));
    if (result.kind === "ERROR") {
      const fieldErrors = "fieldErrors" in result ? result.fieldErrors : undefined;
      return answerRefusal<ActionResult>(result, { create: { fieldErrors, error: fieldErrors ? undefined : result.message } });
    }
    // The key travels in this answer only: it is not stored, and a reload does not show it again.
    return { created: { key: result.key, name: result.view.name } } as ActionResult;
  }
  if (intent === "revoke") {
    const result = await revokeApiKey(context.db, { uid: user.id, keyId: formText(form, "keyId") });
    if (result.kind === "ERROR") return answerRefusal<ActionResult>(result, { error: result.message });
    return redirectWithToast(request, context.sessionSecret, HERE, { kind: "success", message: `Revoked "${result.view.name}". It stopped working at once.` });
  }
  const unknown = domainError("invalid-argument", "Unknown action.");
  return answerRefusal<ActionResult>(unknown, { error: unknown.message });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "API keys", noindex: true });

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, mode, origin } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <p className="text-sm">
        <Link to="/app/account">My Account</Link> <span aria-hidden="true">›</span> API keys
      </p>
      <h1 className="mt-2 text-3xl font-bold">API keys</h1>
      <p className="mt-3 max-w-2xl">
        A key lets your own scripts and tools use the Sponsorgrid API for your account: list your opportunities, update a bio page, read
        payments you received, and more. Give each tool its own key with only the permissions it needs, and revoke it when you stop using it.
        Read the <Link to="/developers/api">API reference</Link> to get started.
      </p>
      {mode === "test" ? (
        <p className="mt-2 text-sm text-muted">This site runs the payment sandbox, so its keys are test keys (sg_test_…).</p>
      ) : null}

      <PageNotice>{actionData?.error}</PageNotice>

      {actionData?.created ? <NewApiKeyShown apiKey={actionData.created.key} name={actionData.created.name} origin={origin} /> : null}

      <section aria-labelledby="your-keys" className="mt-10">
        <h2 id="your-keys" className="text-xl font-bold">
          Your keys
        </h2>
        <ApiKeyList rows={rows} />
      </section>

      <section aria-labelledby="new-key" className="mt-10 rounded-2xl border border-primary/15 p-4 shadow-sm sm:p-6">
        <h2 id="new-key" className="text-xl font-bold">
          Create a key
        </h2>
        <CreateApiKeyForm state={actionData?.create} />
      </section>
    </div>
  );
}
