import { Link } from "react-router";
import { apiReference, apiResourceLinks } from "#server/features/api/reference";
import { CodeBlock, InlineCode, ScrollTable, td } from "#app/components/developers/Code";
import { API_REFERENCE_PATH, ApiReferenceFrame } from "#app/components/developers/ApiReferenceFrame";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/api";

// Plain reading: the page needs no JavaScript.
export const handle = { hydrate: false };

/** The overview: what every call shares, and the resources, each on a page of its own (api-resource.tsx). */
export function loader({ context }: Route.LoaderArgs) {
  const { groups: _operations, ...shared } = apiReference(context.config.PUBLIC_ORIGIN);
  return { ...shared, resources: apiResourceLinks(context.config.PUBLIC_ORIGIN), corsOrigins: context.config.API_CORS_ORIGINS };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "API reference",
    description: "The Sponsorgrid REST API: authenticate with an API key, then read and change your opportunities, deals, bio pages, payments and notifications from your own tools.",
  });

export default function ApiReference({ loaderData }: Route.ComponentProps) {
  const { baseUrl, openApiPath, version, resources, scopes, errorCodes, paging, rateLimit, corsOrigins } = loaderData;
  return (
    <ApiReferenceFrame resources={resources} current={API_REFERENCE_PATH}>
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">Developers</p>
      <h1 className="mt-2 text-3xl font-bold sm:text-4xl">API reference</h1>
      <p className="mt-4 max-w-3xl text-lg">
        The Sponsorgrid API lets your own scripts and services do what you do in the app: list and post opportunities, update your bio pages,
        read and refund payments you received, and keep up with your notifications. It speaks JSON over HTTPS. Version {version}.
      </p>
      <p className="mt-3">
        The machine-readable description is the OpenAPI 3.1 document at <a href={openApiPath}>{openApiPath}</a>: load it into Postman, Insomnia
        or a client generator. To be told when something happens instead of asking, see <Link to="/developers/webhooks">Webhooks</Link>.
      </p>

      <nav aria-labelledby="contents" className="mt-8 rounded-2xl bg-secondary/30 p-5">
        <h2 id="contents" className="font-bold">
          Contents
        </h2>
        <ul className="mt-2 grid gap-1 sm:grid-cols-2">
          <li><a href="#resources">Resources</a></li>
          <li><a href="#authentication">Authentication</a></li>
          <li><a href="#errors">Errors</a></li>
          <li><a href="#paging">Paging</a></li>
          <li><a href="#rate-limits">Rate limits</a></li>
          <li><a href="#idempotency">Idempotency</a></li>
          <li><a href="#scopes">Permissions (scopes)</a></li>
        </ul>
      </nav>

      <section id="resources" aria-labelledby="resources-h" className="mt-10 scroll-mt-20">
        <h2 id="resources-h" className="text-2xl font-bold">Resources</h2>
        <p className="mt-3">Each resource has a page of its own: every operation on it, what it takes and answers, how it fails, and a curl line to try.</p>
        {/* The ids are the anchors this page had when it held every operation: a bookmark still lands on a link to the operation's page. */}
        <ul aria-label="Resources" className="mt-4 grid gap-4 sm:grid-cols-2">
          {resources.map((resource) => (
            <li key={resource.slug} id={`tag-${resource.slug}`} className="scroll-mt-20 rounded-xl border border-ink/15 p-4">
              <Link to={`${API_REFERENCE_PATH}/${resource.slug}`} className="text-lg font-bold">
                {resource.tag}
              </Link>
              <ul className="mt-2 space-y-1 text-sm">
                {resource.operations.map((operation) => (
                  <li key={operation.id} id={operation.id} className="scroll-mt-20">
                    <Link to={`${API_REFERENCE_PATH}/${resource.slug}#${operation.id}`}>{operation.summary}</Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      <section id="authentication" aria-labelledby="authentication-h" className="mt-10 scroll-mt-20">
        <h2 id="authentication-h" className="text-2xl font-bold">Authentication</h2>
        <p className="mt-3">
          Make a key in <Link to="/app/account/api-keys">My Account → API keys</Link>, choosing what it may do. It is shown once; keep it as
          you would a password. Send it on every request as a bearer token. Keys start with <code>sg_live_</code>, or <code>sg_test_</code> on a
          site that runs the payment sandbox; each works only on its own kind of site.
        </p>
        <p className="mt-3">
          Base URL: <code className="break-all">{baseUrl}</code>
        </p>
        <CodeBlock label="Example request">{`curl -H "Authorization: Bearer sg_live_…" ${baseUrl}/me`}</CodeBlock>
        <p className="mt-3">
          A revoked or expired key, or a key whose account is suspended, stops working at once.
        </p>
        <p className="mt-3" data-testid="api-cors">
          {corsOrigins === "*" || corsOrigins.length > 0 ? (
            <>
              This server lets web pages on {corsOrigins === "*" ? "any site" : corsOrigins.map((origin, i) => (
                <span key={origin}>{i > 0 ? ", " : null}<code>{origin}</code></span>
              ))}{" "}
              call the API from the browser (CORS; cookies are never sent or read). Anyone who opens such a page can see its key: give it only the
              permissions you would show them anyway.
            </>
          ) : (
            <>This server sends no CORS headers: call the API from a server, never from a web page, where the key would be visible to everyone.</>
          )}
        </p>
      </section>

      <section id="errors" aria-labelledby="errors-h" className="mt-10 scroll-mt-20">
        <h2 id="errors-h" className="text-2xl font-bold">Errors</h2>
        <p className="mt-3">
          Every error has the same shape. Branch on <code>code</code>, which never changes; <code>message</code> is for people and may.{" "}
          <code>fields</code> appears when the request was not valid and says what was wrong where.
        </p>
        <CodeBlock label="The error shape">{`{
  "error": {
    "code": "invalid_request",
    "message": "Check body.title.",
    "requestId": "req_…",
    "fields": { "body.title": "Too small: expected string to have >=1 characters" }
  }
}`}</CodeBlock>
        <ScrollTable label="Error codes" narrow headers={["Code", "Status", "Meaning"]}>
          {errorCodes.map((row) => (
            <tr key={row.code}>
              <td className={td}><code className="whitespace-nowrap">{row.code}</code></td>
              <td className={td}>{row.status}</td>
              <td className={td}><InlineCode text={row.meaning} /></td>
            </tr>
          ))}
        </ScrollTable>
        <p className="mt-3 text-sm">Some operations have codes of their own (a refund that was already made, say); each operation lists them.</p>
      </section>

      <section id="paging" aria-labelledby="paging-h" className="mt-10 scroll-mt-20">
        <h2 id="paging-h" className="text-2xl font-bold">Paging</h2>
        <p className="mt-3">
          Lists answer <code>{`{ "data": [...], "nextCursor": "…" }`}</code>. Ask for up to <code>limit</code> items ({paging.defaultSize} by
          default, at most {paging.maxSize}); for the next page, send the <code>nextCursor</code> you got as <code>cursor</code>, with the same
          filters. <code>nextCursor</code> is <code>null</code> on the last page. Cursors are opaque: do not build or change them.
        </p>
      </section>

      <section id="rate-limits" aria-labelledby="rate-limits-h" className="mt-10 scroll-mt-20">
        <h2 id="rate-limits-h" className="text-2xl font-bold">Rate limits</h2>
        <p className="mt-3">
          Each key may make {rateLimit.perKey} requests a minute; requests without a valid key are limited to {rateLimit.keyless} a minute per
          network. Every answer says where you stand:
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li><code>RateLimit-Policy: "per-key";q={rateLimit.perKey};w={rateLimit.windowSeconds}</code>: the limit and its window in seconds.</li>
          <li><code>RateLimit: "per-key";r=599;t=42</code>: requests remaining, and seconds until the window resets.</li>
          <li>Past the limit: <code>429</code> with <code>rate_limited</code> and <code>Retry-After</code> in seconds.</li>
        </ul>
      </section>

      <section id="idempotency" aria-labelledby="idempotency-h" className="mt-10 scroll-mt-20">
        <h2 id="idempotency-h" className="text-2xl font-bold">Idempotency keys</h2>
        <p className="mt-3">
          Operations that list an <code>idempotency-key</code> header below (a refund, for one) take an <code>Idempotency-Key</code>: any unique string, such as a UUID. If the network
          fails and you retry with the same key, you get the first answer back (with <code>Idempotent-Replayed: true</code>) and the action
          happens once. The same key with a different request is refused with <code>idempotency_key_reused</code>. Keys are kept for 24 hours.
        </p>
      </section>

      <section id="scopes" aria-labelledby="scopes-h" className="mt-10 scroll-mt-20">
        <h2 id="scopes-h" className="text-2xl font-bold">Permissions (scopes)</h2>
        <p className="mt-3">
          A key may do only what it was given when it was made. Calling an operation without its permission answers <code>403</code> with{" "}
          <code>insufficient_scope</code>. Another account's objects never appear: they answer <code>404</code>.
        </p>
        <ScrollTable label="Scopes" narrow headers={["Scope", "Allows"]}>
          {scopes.map((row) => (
            <tr key={row.scope}>
              <td className={td}><code className="whitespace-nowrap">{row.scope}</code></td>
              <td className={td}>{row.allows}</td>
            </tr>
          ))}
        </ScrollTable>
      </section>

    </ApiReferenceFrame>
  );
}
