import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { mayReadMailbox } from "./mailbox-access";

// What a same-host reverse proxy sends when it forwards no client address.
const sameHostProxy = new Headers({ Host: "sponsorgrid.example", "X-Forwarded-Proto": "https" });

describe("the dev mailbox", () => {
  it("is open to this machine outside production", () => {
    expect(mayReadMailbox(loadConfig({ NODE_ENV: "development" }), "127.0.0.1", new Headers())).toBe(true);
  });

  it("is shut in production, even to a loopback request that looks local", () => {
    const config = loadConfig({ NODE_ENV: "production" });
    expect(config.DEV_MAILBOX).toBe(false);
    expect(mayReadMailbox(config, "127.0.0.1", new Headers())).toBe(false);
    expect(mayReadMailbox(config, "127.0.0.1", new Headers({ Host: "localhost:3000" }))).toBe(false);
  });

  it("is shut to a same-host proxy that sends only Host and X-Forwarded-Proto, whatever the setting", () => {
    expect(mayReadMailbox(loadConfig({ NODE_ENV: "development" }), "127.0.0.1", sameHostProxy)).toBe(false);
    expect(mayReadMailbox(loadConfig({ NODE_ENV: "production", DEV_MAILBOX: "on" }), "127.0.0.1", sameHostProxy)).toBe(false);
  });

  it("opens in production on this machine only when DEV_MAILBOX=on is set outright", () => {
    expect(mayReadMailbox(loadConfig({ NODE_ENV: "production", DEV_MAILBOX: "on" }), "127.0.0.1", new Headers())).toBe(true);
  });

  it("can be turned off outside production", () => {
    expect(mayReadMailbox(loadConfig({ NODE_ENV: "development", DEV_MAILBOX: "off" }), "127.0.0.1", new Headers())).toBe(false);
  });

  it("cannot be turned on where the server runs for real (production on a public origin)", () => {
    expect(() => loadConfig({ NODE_ENV: "production", PUBLIC_ORIGIN: "https://sponsorgrid.example", DEV_MAILBOX: "on" })).toThrowError(
      /DEV_MAILBOX must not be on when the server runs for real \(NODE_ENV=production on https:\/\/sponsorgrid.example\)/,
    );
    expect(() => loadConfig({ DEV_MAILBOX: "yes" })).toThrowError(/DEV_MAILBOX must be "on" or "off"/);
  });
});
