import { defineConfig } from "drizzle-kit";

// The built-in sandbox payment provider's own tables (schema `sandbox`), in a migration chain of
// their own that the server applies only when PAYMENT_PROVIDER=sandbox (server/providers/payments/sandbox/migrations.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/providers/payments/sandbox/schema.ts",
  out: "./server/providers/payments/sandbox/migrations",
  schemaFilter: ["sandbox"],
  casing: "snake_case",
});
