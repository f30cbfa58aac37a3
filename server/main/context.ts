import type { Logger } from "pino";
import type { Auth } from "#server/domains/auth/auth";
import type { SessionLookups } from "#server/domains/auth/session";
import type { ViewCounter } from "#server/domains/bio/host/view-counter";
import type { Captcha } from "#server/platform/captcha/captcha";
import type { Config } from "#server/platform/config";
import type { Mailer } from "#server/platform/email/mailer";
import type { Db } from "#server/platform/db/client";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import type { TagCatalogueReader } from "#server/domains/opportunities/tags";
import type { SearchLog } from "#server/platform/search-log/search-log";
import type { RenderedDocuments } from "#server/platform/http/rendered-documents";
import type { PhotoMedia } from "#server/domains/media/media";
import type { Metrics } from "#server/platform/metrics/metrics";
import type { CostKind } from "#server/platform/http/request-cost";
import type { WebhookWorker } from "#server/platform/outgoing-webhooks/worker";
import type { TaskSink } from "#server/platform/jobs/task-queue";

/**
 * What every loader and action receives as `context`: the services the composition root
 * built for this process (server/main/composition-root.ts), plus what belongs to this request.
 */
export type AppContext = {
  config: Config;
  db: Db;
  logger: Logger;
  /** This process's Prometheus metrics (server/platform/metrics/). */
  metrics: Metrics;
  auth: Auth;
  mailer: Mailer;
  captcha: Captcha;
  /** The configured card payment provider (server/providers/payments/choose-provider.ts). */
  payments: PaymentProvider;
  /** The built-in payment sandbox while it is the provider (its /sandbox pages); null with Stripe. */
  sandbox: SandboxProvider | null;
  /** Searches counted in memory and written in batches (server/platform/search-log/). */
  searchLog: SearchLog;
  /** Bio page views and link clicks counted in memory (server/domains/bio/host/view-counter.ts). */
  viewCounter: ViewCounter;
  /** The opportunity tag catalogue, kept in memory per guest page generation (server/domains/opportunities/tags.ts). */
  tagCatalogue: TagCatalogueReader;
  /** Profile photos: processing turns and served bytes (server/domains/media/). */
  photos: PhotoMedia;
  /** Documents already rendered, by what they were rendered from (app/entry.server.tsx). */
  renderedDocuments: RenderedDocuments;
  /** Outgoing webhooks' delivery worker (server/platform/outgoing-webhooks/): `kick()` sends what was just queued now, not at the next poll. */
  webhooks: Pick<WebhookWorker, "kick">;
  /** Work handed off to run after the answer, durably (server/platform/jobs/task-queue.ts): a password reset. */
  tasks: TaskSink;
  /** Signs the flash (toast) cookie; shared by every app process. */
  sessionSecret: string;
  /** Per-request CSP nonce for the few inline scripts React Router emits. */
  cspNonce: string;
  /** The client's address as Express sees it (honours TRUST_PROXY). */
  clientIp: string;
  /** This request's id, on every log line written while it is answered (server/platform/http/request-id.ts). */
  requestId: string;
  /** Counts a render (or any other cost) against this request, for its access log line (server/platform/http/request-cost.ts). */
  charge: (kind: CostKind) => void;
  /** This request's session lookups, so the root and route loaders read the session once (server/domains/auth/session.ts). */
  sessionLookups: SessionLookups;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
