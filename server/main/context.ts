import type { Logger } from "pino";
import type { Auth } from "#server/auth/auth";
import type { SessionLookups } from "#server/auth/session";
import type { ViewCounter } from "#server/bio/host/view-counter";
import type { Captcha } from "#server/captcha/captcha";
import type { Config } from "#server/config";
import type { Mailer } from "#server/email/mailer";
import type { Db } from "#server/db/client";
import type { PaymentProvider } from "#server/payments/provider";
import type { SandboxProvider } from "#server/payments/sandbox/provider";
import type { TagCatalogueReader } from "#server/opportunities/tags";
import type { SearchLog } from "#server/search-log/search-log";
import type { RenderedDocuments } from "#server/http/rendered-documents";
import type { PhotoMedia } from "#server/media/media";
import type { Metrics } from "#server/metrics/metrics";
import type { CostKind } from "#server/http/request-cost";
import type { WebhookWorker } from "#server/outgoing-webhooks/worker";

/**
 * What every loader and action receives as `context`: the services the composition root
 * built for this process (server/main/composition-root.ts), plus what belongs to this request.
 */
export type AppContext = {
  config: Config;
  db: Db;
  logger: Logger;
  /** This process's Prometheus metrics (server/metrics/). */
  metrics: Metrics;
  auth: Auth;
  mailer: Mailer;
  captcha: Captcha;
  /** The configured card payment provider (server/payments/setup.ts). */
  payments: PaymentProvider;
  /** The built-in payment sandbox while it is the provider (its /sandbox pages); null with Stripe. */
  sandbox: SandboxProvider | null;
  /** Searches counted in memory and written in batches (server/search-log/). */
  searchLog: SearchLog;
  /** Bio page views and link clicks counted in memory (server/bio/host/view-counter.ts). */
  viewCounter: ViewCounter;
  /** The opportunity tag catalogue, kept in memory per guest page generation (server/opportunities/tags.ts). */
  tagCatalogue: TagCatalogueReader;
  /** Profile photos: processing turns and served bytes (server/media/). */
  photos: PhotoMedia;
  /** Documents already rendered, by what they were rendered from (app/entry.server.tsx). */
  renderedDocuments: RenderedDocuments;
  /** Outgoing webhooks' delivery worker (server/outgoing-webhooks/): `kick()` sends what was just queued now, not at the next poll. */
  webhooks: Pick<WebhookWorker, "kick">;
  /** Signs the flash (toast) cookie; shared by every app process. */
  sessionSecret: string;
  /** Per-request CSP nonce for the few inline scripts React Router emits. */
  cspNonce: string;
  /** The client's address as Express sees it (honours TRUST_PROXY). */
  clientIp: string;
  /** This request's id, on every log line written while it is answered (server/http/request-id.ts). */
  requestId: string;
  /** Counts a render (or any other cost) against this request, for its access log line (server/http/request-cost.ts). */
  charge: (kind: CostKind) => void;
  /** This request's session lookups, so the root and route loaders read the session once (server/auth/session.ts). */
  sessionLookups: SessionLookups;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
