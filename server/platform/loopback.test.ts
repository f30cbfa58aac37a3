import { describe, expect, it } from "vitest";
import { isLocalMachineRequest, isLoopbackAddress } from "./loopback";

describe("isLoopbackAddress", () => {
  it.each(["127.0.0.1", "127.255.255.254", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::FFFF:127.9.8.7", "::ffff:7f00:1"])(
    "accepts %s",
    (ip) => expect(isLoopbackAddress(ip)).toBe(true),
  );

  it.each(["", "localhost", "garbage", "128.0.0.1", "10.0.0.1", "192.168.1.10", "0.0.0.0", "::", "::2", "fe80::1", "::ffff:10.0.0.1", "::127.0.0.1", "127.0.0.1.nip.io", " 127.0.0.1"])(
    "rejects %j",
    (ip) => expect(isLoopbackAddress(ip)).toBe(false),
  );
});

describe("isLocalMachineRequest", () => {
  it("accepts a direct request from loopback", () => {
    expect(isLocalMachineRequest("127.0.0.1", new Headers())).toBe(true);
  });

  it.each(["X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Forwarded-Proto", "X-Forwarded-Host"])("rejects a loopback request that came through a proxy (%s)", (header) => {
    expect(isLocalMachineRequest("127.0.0.1", new Headers({ [header]: "127.0.0.1" }))).toBe(false);
  });

  it("rejects another machine", () => {
    expect(isLocalMachineRequest("203.0.113.7", new Headers())).toBe(false);
  });
});
