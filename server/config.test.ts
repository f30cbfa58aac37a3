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
    }
  });

  it("requires a shared SESSION_SECRET for production on PostgreSQL", () => {
    expect(() =>
      loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://localhost/db" }),
    ).toThrowError(/SESSION_SECRET is required in production when DATABASE_URL is set \(not set\)/);
  });
});
