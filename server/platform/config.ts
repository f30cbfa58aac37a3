import net from "node:net";
import { z } from "zod";
import { isLocalhostOrigin } from "#server/platform/loopback";

/**
 * Every environment variable the product reads, validated once at boot.
 * Domain code never reads process.env: it is handed the parsed `Config`.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** Express's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry) || net.isIP(entry) !== 0) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0 || !/^\d{1,3}$/.test(bits ?? "")) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies in front of the app may say who the client is: none (unset, false, 0),
 * a number of hops, or a list of their addresses and ranges. Only the address the
 * trusted hop appended to X-Forwarded-For counts; everything left of it the client wrote.
 */
export type TrustProxy = false | number | string[];

const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const given = value?.trim().toLowerCase() ?? "";
    if (given === "" || given === "false" || given === "0") return false;
    if (/^\d+$/.test(given) && Number(given) <= 10) return Number(given);
    const entries = given.split(",").map((entry) => entry.trim());
    if (given !== "true" && entries.every(isAddressOrRange)) return entries;
    ctx.addIssue({
      code: "custom",
      message:
        given === "true"
          ? "no longer accepts true, which let any client choose its own address by writing X-Forwarded-For: give the number of proxies in front of the app (usually 1) or their addresses"
          : "must be the number of proxies in front of the app (1-10) or a comma-separated list of their addresses or CIDR ranges, e.g. 1 or 10.0.0.1,10.1.0.0/16",
    });
    return z.NEVER;
  });

const origin = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// origin, e.g. http://localhost:3000" })
  .transform((value) => new URL(value).origin);

/**
 * The sites whose pages may call `/api/v1` from a browser (ADR 0056): none by default, `*` for
 * any, or a comma-separated list of origins. Keys are bearer tokens, never cookies, so opening
 * CORS lets a page read what its own key may read, and nothing of a visitor's.
 */
const corsOrigins = z
  .string()
  .optional()
  .transform((given, ctx): "*" | string[] => {
    const entries = (given ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
    if (entries.length === 1 && entries[0] === "*") return "*";
    const origins: string[] = [];
    for (const entry of entries) {
      const parsed = URL.canParse(entry) ? new URL(entry) : null;
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== entry.replace(/\/$/, "")) {
        ctx.addIssue({ code: "custom", message: `must be * or a comma-separated list of origins such as https://overlay.example.com (no path); "${entry}" is not one` });
        return z.NEVER;
      }
      origins.push(parsed.origin);
    }
    return origins;
  });

/**
 * Where outgoing webhooks may go (server/platform/outgoing-webhooks/targets.ts): `public` hosts over https
 * only; `loopback`, this machine too, over http as well; `anywhere`, private networks too.
 */
export type WebhookTargets = "public" | "loopback" | "anywhere";

/**
 * WEBHOOK_PRIVATE_TARGETS when set; otherwise anywhere outside production, and in production
 * public hosts only, except on a sandbox site served from this machine (`npm start` on a laptop):
 * there a developer receives events on their own machine. A sandbox site others can reach gets
 * no loopback, since its own local services must not answer strangers' endpoints.
 */
function webhookTargets(env: { WEBHOOK_PRIVATE_TARGETS?: "allow" | "refuse"; NODE_ENV: string; PAYMENT_PROVIDER?: string; STRIPE_SECRET_KEY?: string }, publicOrigin: string): WebhookTargets {
  if (env.WEBHOOK_PRIVATE_TARGETS) return env.WEBHOOK_PRIVATE_TARGETS === "allow" ? "anywhere" : "public";
  if (env.NODE_ENV !== "production") return "anywhere";
  const sandbox = (env.PAYMENT_PROVIDER ?? (env.STRIPE_SECRET_KEY ? "stripe" : "sandbox")) === "sandbox";
  return sandbox && isLocalhostOrigin(publicOrigin) ? "loopback" : "public";
}

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
    // The tables' owner, for migrations: then the app connects with DATABASE_URL as a role that
    // owns nothing and may not change the audit log (server/platform/db/app-role.ts, ADR 0060).
    MIGRATION_DATABASE_URL: z
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
    // Bio pages, profile photos and guest pages kept in memory are answered before the app's
    // request log, at a fraction of its cost: "on" logs them too (one line each, at info).
    LOG_FAST_PATHS: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default("off"),
    TRUST_PROXY: trustProxy,
    ENABLE_TEST_ROUTES: booleanFlag,
    // The end-to-end suite sends it with every request to /__test/* (X-Test-Routes-Secret).
    TEST_ROUTES_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    // Guest pages answered from memory (server/platform/page-cache/); "off" renders every request.
    GUEST_PAGE_CACHE: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default("on"),
    // Prometheus scrapes /metrics with "Authorization: Bearer <token>"; unset, there is no /metrics.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    // After SIGTERM, /readyz answers 503 this long while requests are still served, so the balancer stops sending first.
    SHUTDOWN_GRACE_MS: z.coerce.number().int("must be a whole number").min(0, "must not be negative").max(120_000, "must be at most 120000").optional(),

    // Password policy, served to the sign-up form and enforced on the server.
    PASSWORD_MIN_LENGTH: z.coerce.number().int("must be a whole number").min(6, "must be at least 6").max(128, "must be at most 128").default(6),
    PASSWORD_MAX_LENGTH: z.coerce.number().int("must be a whole number").min(6, "must be at least 6").max(4096, "must be at most 4096").optional(),
    PASSWORD_REQUIRE_LOWERCASE: booleanFlag,
    PASSWORD_REQUIRE_UPPERCASE: booleanFlag,
    PASSWORD_REQUIRE_NUMERIC: booleanFlag,
    PASSWORD_REQUIRE_NON_ALPHANUMERIC: booleanFlag,

    // Google sign-in: shown only when both credentials are set.
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_DISCOVERY_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default("https://accounts.google.com/.well-known/openid-configuration"),

    // Email: SMTP when set, otherwise the database outbox; /dev/mailbox shows it to this machine
    // only when DEV_MAILBOX is on (the default outside production: it holds live sign-in links).
    DEV_MAILBOX: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).optional(),
    // Requests a minute one API key may make (ADR 0056); counted across every process.
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").default(600),
    API_CORS_ORIGINS: corsOrigins,
    // Whether outgoing webhooks may go to loopback, private and link-local addresses (and over
    // plain http): "allow" by default outside production; in production "refuse", except that a
    // sandbox site sends to this machine's own loopback over http too (ADR 0057, `webhookTargets`).
    WEBHOOK_PRIVATE_TARGETS: z.enum(["allow", "refuse"], { error: 'must be "allow" or "refuse"' }).optional(),
    SMTP_URL: z.string().regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL").optional(),
    MAIL_FROM: z.string().min(3).optional(),

    // Captcha on sign-up: ALTCHA (self-hosted) unless another provider is configured.
    CAPTCHA_PROVIDER: z.enum(["altcha", "recaptcha", "turnstile"]).default("altcha"),
    CAPTCHA_SITE_KEY: z.string().min(1).optional(),
    CAPTCHA_SECRET_KEY: z.string().min(1).optional(),
    // Proof-of-work size for ALTCHA (higher = slower for bots and people).
    ALTCHA_MAX_NUMBER: z.coerce.number().int().min(1000, "must be at least 1000").max(10_000_000).default(100_000),

    // Card payments (server/domains/payments/): Stripe when its keys are set, otherwise the built-in sandbox.
    PAYMENT_PROVIDER: z.enum(["stripe", "sandbox"], { error: 'must be "stripe" or "sandbox"' }).optional(),
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key (sk_test_…, sk_live_…)").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, "must be a Stripe webhook signing secret (whsec_…)").optional(),
    // The Connect endpoint's own secret, when connected accounts' events (account.updated) post to a separate endpoint.
    STRIPE_CONNECT_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, "must be a Stripe webhook signing secret (whsec_…)").optional(),
    // Where the stripe SDK sends its calls; only for a local Stripe API emulator (tests).
    STRIPE_API_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    // The platform's share of each sponsor payment, in percent (0 to 50, up to two decimals).
    PLATFORM_FEE_PERCENT: z.coerce
      .number({ error: "must be a number" })
      .min(0, "must be between 0 and 50")
      .max(50, "must be between 0 and 50")
      .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, "must have at most two decimals")
      .default(0),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["GOOGLE_CLIENT_SECRET"], message: "and GOOGLE_CLIENT_ID must be set together" });
    }
    if (env.PASSWORD_MAX_LENGTH !== undefined && env.PASSWORD_MAX_LENGTH < env.PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: "custom", path: ["PASSWORD_MAX_LENGTH"], message: "must not be below PASSWORD_MIN_LENGTH" });
    }
    if (env.CAPTCHA_PROVIDER !== "altcha" && (!env.CAPTCHA_SITE_KEY || !env.CAPTCHA_SECRET_KEY)) {
      ctx.addIssue({ code: "custom", path: ["CAPTCHA_SECRET_KEY"], message: `and CAPTCHA_SITE_KEY are required for ${env.CAPTCHA_PROVIDER}` });
    }
    if (env.ENABLE_TEST_ROUTES && !env.TEST_ROUTES_SECRET) {
      ctx.addIssue({ code: "custom", path: ["TEST_ROUTES_SECRET"], message: "is required when ENABLE_TEST_ROUTES is set" });
    }
    // "For real": a production build answering on a public name. Test routes change data at will.
    if (env.ENABLE_TEST_ROUTES && env.NODE_ENV === "production" && env.PUBLIC_ORIGIN && !isLocalhostOrigin(env.PUBLIC_ORIGIN)) {
      ctx.addIssue({
        code: "custom",
        path: ["ENABLE_TEST_ROUTES"],
        message: `must not be set when the server runs for real (NODE_ENV=production on ${env.PUBLIC_ORIGIN}); it is for the end-to-end suite on this machine`,
      });
    }
    // The mailbox shows reset links to whoever this machine's loopback lets in, a same-host proxy
    // included: never where the server runs for real.
    if (env.DEV_MAILBOX === "on" && env.NODE_ENV === "production" && env.PUBLIC_ORIGIN && !isLocalhostOrigin(env.PUBLIC_ORIGIN)) {
      ctx.addIssue({
        code: "custom",
        path: ["DEV_MAILBOX"],
        message: `must not be on when the server runs for real (NODE_ENV=production on ${env.PUBLIC_ORIGIN}): it shows password-reset links; set SMTP_URL to deliver mail`,
      });
    }
    // A webhook endpoint could otherwise point the server at its own network (metadata services, databases).
    if (env.WEBHOOK_PRIVATE_TARGETS === "allow" && env.NODE_ENV === "production" && env.PUBLIC_ORIGIN && !isLocalhostOrigin(env.PUBLIC_ORIGIN)) {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOK_PRIVATE_TARGETS"],
        message: `must not be "allow" when the server runs for real (NODE_ENV=production on ${env.PUBLIC_ORIGIN}): webhooks could reach the server's own network`,
      });
    }
    if (env.PAYMENT_PROVIDER === "stripe" && (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_SECRET_KEY"], message: "and STRIPE_WEBHOOK_SECRET are required when PAYMENT_PROVIDER is stripe" });
    }
    if (env.STRIPE_CONNECT_WEBHOOK_SECRET && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_CONNECT_WEBHOOK_SECRET"], message: "needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET too" });
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "and STRIPE_SECRET_KEY must be set together" });
    }
    // Running for real with no Stripe keys must not quietly take pretend payments, on either database
    // engine. On this machine's own origin (`npm start` on a laptop) the sandbox stays the default:
    // nobody else can reach it, and the host check answers no other name (ADR 0019).
    if (env.NODE_ENV === "production" && !env.STRIPE_SECRET_KEY && env.PAYMENT_PROVIDER !== "sandbox" && env.PUBLIC_ORIGIN && !isLocalhostOrigin(env.PUBLIC_ORIGIN)) {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENT_PROVIDER"],
        message: `needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET in production on ${env.PUBLIC_ORIGIN}, or PAYMENT_PROVIDER=sandbox to take test payments only`,
      });
    }
    if (env.MIGRATION_DATABASE_URL && !env.DATABASE_URL) {
      ctx.addIssue({ code: "custom", path: ["MIGRATION_DATABASE_URL"], message: "needs DATABASE_URL too: the app's own connection, as another role" });
    }
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
      MAIL_FROM: env.MAIL_FROM ?? `${env.APP_NAME} <no-reply@${new URL(publicOrigin).hostname}>`,
      PAYMENT_PROVIDER: env.PAYMENT_PROVIDER ?? (env.STRIPE_SECRET_KEY ? "stripe" : "sandbox"),
      DEV_MAILBOX: env.DEV_MAILBOX ? env.DEV_MAILBOX === "on" : env.NODE_ENV !== "production",
      WEBHOOK_TARGETS: webhookTargets(env, publicOrigin),
      // A few seconds where a balancer probes a real origin; none on this machine (tests, development).
      SHUTDOWN_GRACE_MS: env.SHUTDOWN_GRACE_MS ?? (env.NODE_ENV === "production" && !isLocalhostOrigin(publicOrigin) ? 5_000 : 0),
    };
  });

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One line (server.js prints it after "Cannot start: "), each problem naming its variable.
    super(`Invalid configuration: ${problems.join("; ")}`);
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
    const shown = given === undefined ? "not set" : /SECRET/.test(name) ? "value hidden" : `got ${JSON.stringify(given)}`;
    return `${name} ${issue.message} (${shown})`;
  });
  throw new ConfigError(problems);
}
