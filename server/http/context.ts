import type { Logger } from "pino";
import type { Auth } from "#server/auth/auth";
import type { Captcha } from "#server/captcha/captcha";
import type { Config } from "#server/config";
import type { Mailer } from "#server/email/mailer";
import type { Db } from "#server/db/client";
import type { PaymentProvider } from "#server/payments/provider";
import type { TagCatalogueReader } from "#server/opportunities/tags";
import type { RenderedDocuments } from "./rendered-documents";

/** What every loader and action receives as `context`. */
export type AppContext = {
  config: Config;
  db: Db;
  logger: Logger;
  auth: Auth;
  mailer: Mailer;
  captcha: Captcha;
  /** The configured card payment provider (server/payments/setup.ts). */
  payments: PaymentProvider;
  /** The opportunity tag catalogue, kept in memory per guest page generation (server/opportunities/tags.ts). */
  tagCatalogue: TagCatalogueReader;
  /** Documents already rendered, by what they were rendered from (app/entry.server.tsx). */
  renderedDocuments: RenderedDocuments;
  /** Signs the flash (toast) cookie; shared by every app process. */
  sessionSecret: string;
  /** Per-request CSP nonce for the few inline scripts React Router emits. */
  cspNonce: string;
  /** The client's address as Express sees it (honours TRUST_PROXY). */
  clientIp: string;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
