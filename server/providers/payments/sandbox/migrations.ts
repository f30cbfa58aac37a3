import type { MigrationChain } from "#server/platform/db/migrate";
import { projectPath } from "#server/platform/paths";

/**
 * The sandbox's own tables (./schema.ts, schema `sandbox`), made by its own
 * migrations (drizzle.sandbox.config.ts: `npx drizzle-kit generate --config
 * drizzle.sandbox.config.ts`) and applied at start only when the sandbox is
 * the configured provider (server/providers/payments/choose-provider.ts). A database from before
 * had these tables in `public`; the product's migration 0022 moved them into
 * `sandbox` in the first migration's shape, which is then recorded, not run.
 */
export const SANDBOX_MIGRATIONS: MigrationChain = {
  folder: projectPath("server/providers/payments/sandbox/migrations"),
  table: "__drizzle_migrations_sandbox",
  adoptsFirstMigrationIfExists: "sandbox.sandbox_accounts",
};
