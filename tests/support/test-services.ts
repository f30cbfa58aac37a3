// The outside world of the end-to-end suite, on loopback: a real SMTP server
// that keeps what it receives, and an OpenID Connect provider standing in for
// Google. A small control API lets tests read mail and choose who "Google"
// says is signing in. Started before the app, by playwright.config.ts or
// tests/support/start-e2e-servers.ts (tests/support/e2e-servers.ts); its ports follow E2E_PORT.
import http from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import { startSmtpSink } from "./smtp-sink";
import { E2E_PORTS } from "./e2e-ports";

type Identity = { email: string; name: string; email_verified: boolean };
let identity: Identity = { email: "google.user@gmail.example", name: "Google User", email_verified: true };

const sink = await startSmtpSink({ port: E2E_PORTS.smtp });

const oidc = new OAuth2Server();
await oidc.issuer.keys.generate("RS256");
const claims = () => ({ sub: `google-${identity.email}`, ...identity });
oidc.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, claims()));
oidc.service.on("beforeUserinfo", (response) => {
  response.body = claims();
});
await oidc.start(E2E_PORTS.oidc, "127.0.0.1");
oidc.issuer.url = `http://127.0.0.1:${E2E_PORTS.oidc}`;

const control = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://control");
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  };
  if (url.pathname === "/health") return reply(200, { ok: true });
  if (url.pathname === "/mail") {
    const to = (url.searchParams.get("to") ?? "").toLowerCase();
    return reply(200, sink.messages.filter((mail) => mail.to.some((address) => address.toLowerCase() === to)));
  }
  if (url.pathname === "/oidc/identity" && req.method === "POST") {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      identity = { ...identity, ...(JSON.parse(body) as Partial<Identity>) };
      reply(200, identity);
    });
    return;
  }
  reply(404, { error: "not found" });
});
control.listen(E2E_PORTS.control, "127.0.0.1", () => {
  console.log(`test services: smtp ${sink.url}, oidc ${oidc.issuer.url}, control http://127.0.0.1:${E2E_PORTS.control}`);
});

const stop = async () => {
  control.close();
  await Promise.all([sink.close(), oidc.stop()]);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
