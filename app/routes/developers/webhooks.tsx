import { Link } from "react-router";
import { CodeBlock, FieldTable, InlineCode, ScrollTable, td } from "#app/components/developers/Code";
import { OPENAPI_PATH } from "#server/features/api/http";
import { webhookReference, type WebhookDataGroup } from "#server/features/api/webhook-reference";
import { apiResourceLinks } from "#server/features/api/reference";
import { ApiReferenceFrame } from "#app/components/developers/ApiReferenceFrame";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/webhooks";

// Plain reading: the page needs no JavaScript.
export const handle = { hydrate: false };

export function loader({ context }: Route.LoaderArgs) {
  return { groups: webhookReference(context.config.PUBLIC_ORIGIN), openApiPath: OPENAPI_PATH, resources: apiResourceLinks(context.config.PUBLIC_ORIGIN) };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Webhooks",
    description: "Get told the moment a payment arrives, a refund or dispute happens, or your Pro membership changes: signed webhooks that follow the Standard Webhooks format.",
  });

const VERIFY_SNIPPET = `// npm install standardwebhooks express
import express from "express";
import { Webhook } from "standardwebhooks";

// The endpoint's signing secret (whsec_…), from My Account → Webhooks.
const webhook = new Webhook(process.env.SPONSORGRID_WEBHOOK_SECRET);
const app = express();

// express.raw: the signature covers the exact bytes we sent, so verify
// the raw body, before any JSON parser has touched it.
app.post("/sponsorgrid-webhooks", express.raw({ type: "application/json" }), async (req, res) => {
  let event;
  try {
    // Checks webhook-signature against webhook-id, webhook-timestamp and the
    // body, and refuses a timestamp more than 5 minutes off.
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.status(400).send("Invalid signature");
  }

  // A delivery can come more than once (a retry after a timeout): handle
  // each webhook-id once.
  const id = req.get("webhook-id");
  if (await alreadyHandled(id)) return res.sendStatus(200);

  switch (event.type) {
    case "payment.succeeded":
      console.log("Paid:", event.data);
      break;
    // …
  }
  await markHandled(id);
  res.sendStatus(200);
});

app.listen(3000);`;

const PAYLOAD_EXAMPLE = `POST /sponsorgrid-webhooks HTTP/1.1
Content-Type: application/json
webhook-id: msg_2b7Xv…
webhook-timestamp: 1767225600
webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=

{
  "type": "payment.succeeded",
  "timestamp": "2026-01-01T00:00:00.000Z",
  "data": { … }
}`;

const groupAnchor = (group: WebhookDataGroup) => `data-${group.schemaName.toLowerCase()}`;

/** One object events send as their `data`: its fields once, then an example delivery of each event that sends it. */
function DataGroup({ group }: { group: WebhookDataGroup }) {
  const headingId = `${groupAnchor(group)}-heading`;
  return (
    <section id={groupAnchor(group)} aria-labelledby={headingId} className="scroll-mt-20 border-t border-ink/10 py-6" data-testid="webhook-data">
      <h3 id={headingId} className="text-xl font-bold">{group.schemaName}</h3>
      <p className="mt-2">
        The <code>data</code> of{" "}
        {group.events.map((event, i) => (
          <span key={event.type}>
            {i > 0 ? (i === group.events.length - 1 ? " and " : ", ") : null}
            <code>{event.type}</code>
          </span>
        ))}
        {group.description ? <>: <InlineCode text={group.description} /></> : "."}
      </p>
      <FieldTable label={`Fields of ${group.schemaName}`} rows={group.fields} />
      {group.events.map((event) => (
        <details key={event.type} className="mt-3 rounded-lg border border-ink/15 px-4 py-2">
          <summary className="cursor-pointer font-semibold">Example: <code>{event.type}</code></summary>
          <CodeBlock label={`An example ${event.type} body`}>{event.example}</CodeBlock>
        </details>
      ))}
    </section>
  );
}

export default function WebhooksGuide({ loaderData }: Route.ComponentProps) {
  const { groups, openApiPath, resources } = loaderData;
  const events = groups.flatMap((group) => group.events.map((event) => ({ ...event, group })));
  return (
    <ApiReferenceFrame resources={resources} current="/developers/webhooks">
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">Developers</p>
      <h1 className="mt-2 text-3xl font-bold sm:text-4xl">Webhooks</h1>
      <p className="mt-4 text-lg">
        Instead of asking the <Link to="/developers/api">API</Link> over and over, let Sponsorgrid tell your server when something happens. Add
        an HTTPS address in <Link to="/app/account/webhooks">My Account → Webhooks</Link> (or through the{" "}
        <Link to="/developers/api/webhook-endpoints">API</Link>), choose the events it should get, and we send each one as a signed POST request.
      </p>

      <section aria-labelledby="events" className="mt-10">
        <h2 id="events" className="text-2xl font-bold">Events</h2>
        <ScrollTable label="Event types" narrow headers={["Type", "When", <code key="data">data</code>]}>
          {events.map((event) => (
            <tr key={event.type}>
              <td className={td}><code className="whitespace-nowrap">{event.type}</code></td>
              <td className={td}>{event.description}</td>
              <td className={td}>
                <a href={`#${groupAnchor(event.group)}`}>{event.group.schemaName}</a>
              </td>
            </tr>
          ))}
        </ScrollTable>
      </section>

      <section aria-labelledby="payload" className="mt-10">
        <h2 id="payload" className="text-2xl font-bold">What we send</h2>
        <p className="mt-3">
          Deliveries follow <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>. The body is JSON:{" "}
          <code>{`{ type, timestamp, data }`}</code>, where <code>type</code> is one of the events above, <code>timestamp</code> when it happened
          (ISO 8601), and <code>data</code> the object it is about, in the same shape the API answers for it.
        </p>
        <CodeBlock label="An example delivery">{PAYLOAD_EXAMPLE}</CodeBlock>
        <ul className="mt-4 list-disc space-y-2 pl-6">
          <li><code>webhook-id</code>: the event's id. It stays the same when a delivery is retried or resent: use it to handle each event once.</li>
          <li><code>webhook-timestamp</code>: when this attempt was sent, in seconds since 1970. Refuse old ones so a captured request cannot be replayed.</li>
          <li>
            <code>webhook-signature</code>: <code>v1,</code> and a base64 HMAC-SHA256 of <code>id.timestamp.body</code> under the endpoint's secret. While you
            rotate the secret, it carries two signatures, one for each secret, so nothing fails during the switch.
          </li>
        </ul>
      </section>

      <section aria-labelledby="event-data" className="mt-10">
        <h2 id="event-data" className="text-2xl font-bold">What each event sends</h2>
        <p className="mt-3">
          The same objects the API answers, so one parser reads both. The OpenAPI document at <a href={openApiPath}>{openApiPath}</a>{" "}
          describes them under <code>webhooks</code>, for code generators.
        </p>
        {groups.map((group) => (
          <DataGroup key={group.schemaName} group={group} />
        ))}
      </section>

      <section aria-labelledby="verify" className="mt-10">
        <h2 id="verify" className="text-2xl font-bold">Verifying a delivery</h2>
        <p className="mt-3">
          Check the signature of every request before you trust it: anyone can send a POST to your address. In Node, the{" "}
          <code>standardwebhooks</code> package does it in one call; libraries for other languages are listed on the Standard Webhooks site.
        </p>
        <CodeBlock label="Verifying a delivery in Node">{VERIFY_SNIPPET}</CodeBlock>
        <ul className="mt-4 list-disc space-y-2 pl-6">
          <li>Verify the raw body as it arrived. Parsing the JSON and serialising it again changes the bytes, and the signature no longer matches.</li>
          <li>Deduplicate by <code>webhook-id</code>: a delivery can arrive twice, for example when your answer was lost after you had acted.</li>
          <li>Answer quickly with any 2xx status, then do slow work in the background.</li>
        </ul>
      </section>

      <section aria-labelledby="local" className="mt-10">
        <h2 id="local" className="text-2xl font-bold">Trying it on your own machine</h2>
        <p className="mt-3">
          A copy of Sponsorgrid running on your own computer with test payments (<code>npm start</code>, on <code>localhost</code>) sends webhooks to
          your machine too, over plain <code>http://</code>, so you can see a signed delivery arrive in five minutes:
        </p>
        <ol className="mt-3 list-decimal space-y-2 pl-6">
          <li>Start the receiver above on your machine, say on port 4000 (<code>app.listen(4000)</code>).</li>
          <li>
            In My Account → Webhooks, add <code>http://localhost:4000/sponsorgrid-webhooks</code> and copy the secret it shows into{" "}
            <code>SPONSORGRID_WEBHOOK_SECRET</code>.
          </li>
          <li>On the endpoint's page, press Send test event: the delivery log shows your receiver's 200.</li>
        </ol>
        <p className="mt-3">
          Only this machine is allowed that way, never other private addresses, and a site that others can reach sends to public HTTPS addresses
          only.
        </p>
      </section>

      <section aria-labelledby="retries" className="mt-10">
        <h2 id="retries" className="text-2xl font-bold">Retries and failures</h2>
        <ul className="mt-3 list-disc space-y-2 pl-6">
          <li>Only a 2xx answer counts as delivered. We wait up to 10 seconds for it, and do not follow redirects.</li>
          <li>
            A failed delivery is retried with exponential backoff (from seconds to hours apart) for at least 24 hours. Events about the same
            object arrive in the order they happened.
          </li>
          <li>
            When deliveries to an endpoint keep failing, we disable it and send you a mail. Turn it back on in My Account once it works again.
          </li>
          <li>Each endpoint has a delivery log with every attempt's request and answer, and any delivery can be sent again from there.</li>
          <li>
            Endpoints must use HTTPS and a public address: private, loopback, link-local and cloud metadata addresses are refused when you save
            the endpoint, however they are written. If a name later points at such an address, that attempt fails and is tried again on the
            schedule above.
          </li>
        </ul>
      </section>
    </ApiReferenceFrame>
  );
}
