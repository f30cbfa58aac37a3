import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("fills documented defaults on an empty environment", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe("./data");
    expect(config.APP_NAME).toBe("Sponsorgrid");
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PUBLIC_ORIGIN).toBe("http://localhost:3000");
    expect(config.BIO_ORIGIN).toBe("http://bio.localhost:3000");
  });

  it("keeps the API closed to other sites' pages unless API_CORS_ORIGINS opens it, to * or to origins only", () => {
    expect(loadConfig({}).API_CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ API_CORS_ORIGINS: "*" }).API_CORS_ORIGINS).toBe("*");
    expect(loadConfig({ API_CORS_ORIGINS: " https://overlay.example , http://localhost:5173/ " }).API_CORS_ORIGINS).toEqual(["https://overlay.example", "http://localhost:5173"]);
    for (const bad of ["overlay.example", "https://overlay.example/widget", "ftp://overlay.example", "*,https://overlay.example"]) {
      expect(() => loadConfig({ API_CORS_ORIGINS: bad }), bad).toThrow(/API_CORS_ORIGINS must be \* or a comma-separated list of origins/);
    }
  });

  it("derives default origins from PORT and normalises given origins", () => {
    expect(loadConfig({ PORT: "4100" }).PUBLIC_ORIGIN).toBe("http://localhost:4100");
    expect(loadConfig({ PUBLIC_ORIGIN: "https://sponsorgrid.example/" }).PUBLIC_ORIGIN).toBe(
      "https://sponsorgrid.example",
    );
  });

  it("treats empty strings as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "eighty", /PORT must be a port number \(got "eighty"\)/],
    ["PORT", "70000", /PORT must be between 1 and 65535/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL must be a postgres:\/\//],
    ["PUBLIC_ORIGIN", "localhost:3000", /PUBLIC_ORIGIN must be an http/],
    ["SUPPORT_EMAIL", "help", /SUPPORT_EMAIL must be an email address/],
    ["LOG_LEVEL", "loud", /LOG_LEVEL/],
  ])("rejects a bad %s with a message naming it", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(message);
  });

  it("lists every bad variable at once", () => {
    try {
      loadConfig({ PORT: "0", SUPPORT_EMAIL: "nope" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
      // server.js prints it after "Cannot start: ": one line, whatever the number of problems.
      expect((error as ConfigError).message).not.toContain("\n");
    }
  });

  it("requires a shared SESSION_SECRET for production on PostgreSQL", () => {
    expect(() =>
      loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://localhost/db" }),
    ).toThrowError(/SESSION_SECRET is required in production when DATABASE_URL is set \(not set\)/);
  });

  describe("payments", () => {
    const STRIPE = { STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" };
    const PRODUCTION = { NODE_ENV: "production", DATABASE_URL: "postgres://localhost/db", SESSION_SECRET: "x".repeat(32) };

    it("uses the sandbox without Stripe keys, and Stripe with them", () => {
      expect(loadConfig({}).PAYMENT_PROVIDER).toBe("sandbox");
      expect(loadConfig(STRIPE).PAYMENT_PROVIDER).toBe("stripe");
      expect(loadConfig({ ...STRIPE, PAYMENT_PROVIDER: "sandbox" }).PAYMENT_PROVIDER).toBe("sandbox");
      expect(loadConfig({}).PLATFORM_FEE_PERCENT).toBe(0);
      expect(loadConfig({ PLATFORM_FEE_PERCENT: "2.5" }).PLATFORM_FEE_PERCENT).toBe(2.5);
    });

    it("refuses half a Stripe setup, bad keys and fees", () => {
      expect(() => loadConfig({ PAYMENT_PROVIDER: "stripe" })).toThrowError(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required/);
      expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_abc" })).toThrowError(/STRIPE_WEBHOOK_SECRET and STRIPE_SECRET_KEY must be set together/);
      expect(() => loadConfig({ ...STRIPE, STRIPE_SECRET_KEY: "pk_test_abc" })).toThrowError(/must be a Stripe secret key/);
      expect(() => loadConfig({ STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_connect" })).toThrowError(/STRIPE_CONNECT_WEBHOOK_SECRET needs STRIPE_SECRET_KEY/);
      expect(loadConfig({ ...STRIPE, STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_connect" }).STRIPE_CONNECT_WEBHOOK_SECRET).toBe("whsec_connect");
      expect(() => loadConfig({ PLATFORM_FEE_PERCENT: "51" })).toThrowError(/PLATFORM_FEE_PERCENT must be between 0 and 50/);
      expect(() => loadConfig({ PLATFORM_FEE_PERCENT: "1.234" })).toThrowError(/at most two decimals/);
    });

    it("runs the sandbox in production on a public origin only when it is chosen outright", () => {
      const PUBLIC = { PUBLIC_ORIGIN: "https://sponsorgrid.example" };
      expect(() => loadConfig({ ...PRODUCTION, ...PUBLIC })).toThrowError(/PAYMENT_PROVIDER needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET in production on https:\/\/sponsorgrid.example/);
      // The embedded database (no DATABASE_URL) is no excuse: production would otherwise hand out free Pro.
      expect(() => loadConfig({ NODE_ENV: "production", ...PUBLIC })).toThrowError(/PAYMENT_PROVIDER needs STRIPE_SECRET_KEY/);
      expect(loadConfig({ NODE_ENV: "production", ...PUBLIC, PAYMENT_PROVIDER: "sandbox" }).PAYMENT_PROVIDER).toBe("sandbox");
      expect(loadConfig({ ...PRODUCTION, ...PUBLIC, PAYMENT_PROVIDER: "sandbox" }).PAYMENT_PROVIDER).toBe("sandbox");
      expect(loadConfig({ ...PRODUCTION, ...PUBLIC, ...STRIPE }).PAYMENT_PROVIDER).toBe("stripe");
      // `npm start` on a laptop: the production build on this machine's own origin, where only its owner can pay.
      expect(loadConfig({ NODE_ENV: "production" }).PAYMENT_PROVIDER).toBe("sandbox");
      expect(loadConfig({ NODE_ENV: "production", PUBLIC_ORIGIN: "http://localhost:8080" }).PAYMENT_PROVIDER).toBe("sandbox");
    });
  });

  describe("WEBHOOK_PRIVATE_TARGETS", () => {
    it("sends anywhere in development, to public hosts in production, and to this machine too on a sandbox site served from it", () => {
      expect(loadConfig({}).WEBHOOK_TARGETS).toBe("anywhere");
      expect(loadConfig({ NODE_ENV: "production" }).WEBHOOK_TARGETS).toBe("loopback");
      expect(loadConfig({ NODE_ENV: "production", PUBLIC_ORIGIN: "https://demo.sponsorgrid.example", PAYMENT_PROVIDER: "sandbox" }).WEBHOOK_TARGETS).toBe("public");
      expect(loadConfig({ NODE_ENV: "production", STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" }).WEBHOOK_TARGETS).toBe("public");
      expect(loadConfig({ NODE_ENV: "production", WEBHOOK_PRIVATE_TARGETS: "refuse" }).WEBHOOK_TARGETS).toBe("public");
      expect(loadConfig({ WEBHOOK_PRIVATE_TARGETS: "refuse" }).WEBHOOK_TARGETS).toBe("public");
      expect(() => loadConfig({ NODE_ENV: "production", PUBLIC_ORIGIN: "https://sponsorgrid.example", PAYMENT_PROVIDER: "sandbox", WEBHOOK_PRIVATE_TARGETS: "allow" })).toThrowError(/WEBHOOK_PRIVATE_TARGETS must not be "allow"/);
    });
  });

  describe("TRUST_PROXY", () => {
    it.each([
      [undefined, false],
      ["false", false],
      ["0", false],
      ["1", 1],
      ["2", 2],
      ["10.0.0.1", ["10.0.0.1"]],
      ["10.0.0.1, 10.1.0.0/16,fd00::/8", ["10.0.0.1", "10.1.0.0/16", "fd00::/8"]],
      ["loopback,uniquelocal", ["loopback", "uniquelocal"]],
    ])("reads %j as %j", (value, expected) => {
      expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
    });

    it("refuses true, which would let a client pick its own address, and says what to give instead", () => {
      expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrowError(
        /TRUST_PROXY no longer accepts true.*give the number of proxies in front of the app \(usually 1\) or their addresses \(got "true"\)/,
      );
    });

    it.each(["yes", "11", "-1", "10.0.0.1/33", "10.0.0.1, example.com", "1.2.3"])("refuses %j", (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrowError(/TRUST_PROXY must be the number of proxies/);
    });
  });

  describe("test routes", () => {
    const secret = { TEST_ROUTES_SECRET: "a-secret-of-32-characters-at-least" };

    it("need a secret for the suite to send", () => {
      expect(() => loadConfig({ ENABLE_TEST_ROUTES: "true" })).toThrowError(/TEST_ROUTES_SECRET is required when ENABLE_TEST_ROUTES is set/);
      expect(() => loadConfig({ ENABLE_TEST_ROUTES: "true", TEST_ROUTES_SECRET: "short" })).toThrowError(
        /TEST_ROUTES_SECRET must be at least 16 characters \(value hidden\)/,
      );
    });

    it("are refused when the server runs for real: production on a public origin", () => {
      expect(() => loadConfig({ ...secret, ENABLE_TEST_ROUTES: "true", NODE_ENV: "production", PUBLIC_ORIGIN: "https://sponsorgrid.example" })).toThrowError(
        /ENABLE_TEST_ROUTES must not be set when the server runs for real \(NODE_ENV=production on https:\/\/sponsorgrid.example\)/,
      );
    });

    it.each([
      { NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox" },
      { NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PUBLIC_ORIGIN: "http://127.0.0.1:3100" },
      { NODE_ENV: "development", PUBLIC_ORIGIN: "https://sponsorgrid.example" },
    ])("are allowed on this machine or outside production: %j", (env) => {
      expect(loadConfig({ ...secret, ...env, ENABLE_TEST_ROUTES: "true" }).ENABLE_TEST_ROUTES).toBe(true);
    });
  });
});
