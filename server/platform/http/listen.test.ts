import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listen, PortUnavailableError } from "./listen";

describe("listen", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("resolves once listening", async () => {
    const server = http.createServer();
    servers.push(server);
    await listen(server, 0, "127.0.0.1");
    expect(server.listening).toBe(true);
  });

  it("rejects a port already in use with one clear sentence naming it, instead of crashing", async () => {
    const first = http.createServer();
    servers.push(first);
    await listen(first, 0, "127.0.0.1");
    const port = (first.address() as AddressInfo).port;
    const second = http.createServer();
    const failed = await listen(second, port, "127.0.0.1").then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(PortUnavailableError);
    expect((failed as Error).message).toMatch(new RegExp(`^Port ${port} is already in use: .+ set PORT to a free port\\.$`));
    expect(second.listening).toBe(false);
  });
});
