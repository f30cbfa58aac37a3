import { z } from "zod";

/**
 * Every environment variable the product reads, validated once at boot.
 * Domain code never reads process.env: it is handed the parsed `Config`.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const origin = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// origin, e.g. http://localhost:3000" })
  .transform((value) => new URL(value).origin);

const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce
      .number({ error: "must be a port number" })
      .int("must be a whole number")
      .min(1, "must be between 1 and 65535")
      .max(65535, "must be between 1 and 65535")
      .default(3000),
    HOST: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// connection string")
      .optional(),
    APP_NAME: z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters").default("Sponsorgrid"),
    PUBLIC_ORIGIN: origin.optional(),
    BIO_ORIGIN: origin.optional(),
    SUPPORT_EMAIL: z.email("must be an email address").default("support@sponsorgrid.example"),
    COMPANY_NAME: z.string().trim().min(1, "must not be empty").default("Sponsorgrid contributors"),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: booleanFlag,
    ENABLE_TEST_ROUTES: booleanFlag,
  })
  .superRefine((env, ctx) => {
    // Several app processes share one PostgreSQL: they must share the secret too.
    if (env.DATABASE_URL && !env.SESSION_SECRET && env.NODE_ENV === "production") {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required in production when DATABASE_URL is set",
      });
    }
  })
  .transform((env) => {
    const publicOrigin = env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`;
    return {
      ...env,
      PUBLIC_ORIGIN: publicOrigin,
      // *.localhost resolves to loopback in browsers, so bio pages work locally with no DNS setup.
      BIO_ORIGIN: env.BIO_ORIGIN ?? `http://bio.localhost:${env.PORT}`,
    };
  });

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings in .env files mean "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = configSchema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "environment");
    const given = env[name];
    const shown = given === undefined ? "not set" : `got ${JSON.stringify(given)}`;
    return `${name} ${issue.message} (${shown})`;
  });
  throw new ConfigError(problems);
}
