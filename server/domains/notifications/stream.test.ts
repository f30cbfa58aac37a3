import { afterEach, describe, expect, it } from "vitest";
import { createNotificationStreams, type NotificationStreams, type StreamSink } from "./stream";

type FakeSink = StreamSink & { chunks: string[]; ended: boolean };

function sink(): FakeSink {
  const fake: FakeSink = {
    chunks: [],
    ended: false,
    write(chunk) {
      if (fake.ended) throw new Error("write after end");
      fake.chunks.push(chunk);
    },
    end() {
      fake.ended = true;
    },
  };
  return fake;
}

const counts = (fake: FakeSink) => fake.chunks.filter((c) => c.startsWith("event: unread")).map((c) => JSON.parse(c.split("data: ")[1]!).count as number);

describe("notification streams hub", () => {
  let hub: NotificationStreams;
  const unread = new Map<string, number>();
  let countCalls: string[] = [];
  let clock = 1_000_000;

  const makeHub = (limits: Parameters<typeof createNotificationStreams>[0]["limits"] = {}, countUnread?: (uid: string) => Promise<number>) => {
    countCalls = [];
    hub = createNotificationStreams({
      countUnread:
        countUnread ??
        (async (uid) => {
          countCalls.push(uid);
          return unread.get(uid) ?? 0;
        }),
      limits: { coalesceMs: 1, ...limits },
      now: () => clock,
      random: () => 0,
    });
    return hub;
  };
  const open = (uid: string, sessionKey = `session-${uid}`, sessionValid = async () => true) => {
    const fake = sink();
    const result = hub.open({ uid, sink: fake, sessionKey, sessionValid });
    return { fake, result };
  };

  afterEach(() => {
    hub?.closeAll();
    unread.clear();
  });

  it("sends the retry hint and the current count to a new stream", async () => {
    makeHub({ retryMs: 3_000 });
    unread.set("u1", 4);
    const { fake, result } = open("u1");
    expect(result.kind).toBe("SUCCESS");
    await hub.settled();
    expect(fake.chunks[0]).toBe("retry: 3000\n\n");
    expect(fake.chunks[1]).toBe('event: unread\ndata: {"count":4}\n\n');
  });

  it("counts once per user for a burst of changes and sends the true count to every stream of that user only", async () => {
    makeHub();
    unread.set("u1", 1);
    unread.set("u2", 7);
    const tabs = [open("u1"), open("u1"), open("u1")];
    const other = open("u2");
    await hub.settled();
    expect(countCalls.sort()).toEqual(["u1", "u2"]);

    countCalls = [];
    unread.set("u1", 6);
    for (let i = 0; i < 5; i++) hub.changed("u1");
    hub.changed("nobody-connected");
    await hub.settled();
    expect(countCalls).toEqual(["u1"]);
    for (const tab of tabs) expect(counts(tab.fake)).toEqual([1, 6]);
    expect(counts(other.fake)).toEqual([7]);
  });

  it("counts again when a change arrives while counting, so the last number sent is the newest", async () => {
    let release: (() => void) | null = null;
    let calls = 0;
    makeHub({}, async () => {
      calls++;
      if (calls === 2) await new Promise<void>((resolve) => (release = resolve));
      return calls * 10;
    });
    const { fake } = open("u1");
    await hub.settled();
    hub.changed("u1");
    // Let the second count start, then change again while it is under way.
    while (!release) await new Promise((resolve) => setTimeout(resolve, 1));
    hub.changed("u1");
    (release as () => void)();
    await hub.settled();
    expect(calls).toBe(3);
    expect(counts(fake)).toEqual([10, 20, 30]);
  });

  it("does not send a number the stream already shows", async () => {
    makeHub();
    unread.set("u1", 2);
    const { fake } = open("u1");
    await hub.settled();
    hub.changed("u1");
    await hub.settled();
    expect(counts(fake)).toEqual([2]);
  });

  it("closes a user's oldest stream past the per-user cap", async () => {
    makeHub({ perUser: 2 });
    const first = open("u1");
    const second = open("u1");
    const third = open("u1");
    expect(first.fake.ended).toBe(true);
    expect([second.fake.ended, third.fake.ended]).toEqual([false, false]);
    expect(hub.streamsOf("u1")).toBe(2);
    expect(hub.size).toBe(2);
  });

  it("refuses new streams past the global cap, and takes them again once one closes", async () => {
    makeHub({ total: 2 });
    const a = open("u1");
    open("u2");
    expect(open("u3").result.kind).toBe("ERROR");
    if (a.result.kind === "SUCCESS") a.result.close();
    expect(open("u3").result.kind).toBe("SUCCESS");
    expect(hub.size).toBe(2);
  });

  it("writes heartbeats and ends a stream at the end of its lifetime", async () => {
    makeHub({ lifetimeMs: 60_000 });
    const { fake } = open("u1");
    clock += 30_000;
    hub.tick();
    expect(fake.chunks.at(-1)).toBe(": keep-alive\n\n");
    expect(fake.ended).toBe(false);
    clock += 30_000;
    hub.tick();
    expect(fake.ended).toBe(true);
    expect(hub.size).toBe(0);
  });

  it("asks a session again once per check period, for all its streams at once, and ends them when it is gone", async () => {
    makeHub({ sessionCheckMs: 60_000 });
    let valid = true;
    let checks = 0;
    const check = async () => {
      checks++;
      return valid;
    };
    const tabs = [open("u1", "s1", check), open("u1", "s1", check)];
    const otherSession = open("u1", "s2", async () => true);
    hub.tick();
    expect(checks).toBe(0);
    clock += 60_000;
    hub.tick();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(checks).toBe(1);
    expect(tabs.map((t) => t.fake.ended)).toEqual([false, false]);

    valid = false;
    clock += 60_000;
    hub.tick();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(checks).toBe(2);
    expect(tabs.map((t) => t.fake.ended)).toEqual([true, true]);
    expect(otherSession.fake.ended).toBe(false);
  });

  it("ends a stream whose reader stopped reading", async () => {
    makeHub();
    const broken: StreamSink & { ended: boolean } = {
      ended: false,
      write() {
        throw new Error("not reading");
      },
      end() {
        broken.ended = true;
      },
    };
    hub.open({ uid: "u1", sink: broken, sessionKey: "s", sessionValid: async () => true });
    expect(broken.ended).toBe(true);
    expect(hub.size).toBe(0);
  });

  it("sends every connected user's count again after a gap in the change feed", async () => {
    makeHub();
    unread.set("u1", 1);
    unread.set("u2", 1);
    const a = open("u1");
    const b = open("u2");
    await hub.settled();
    unread.set("u1", 3);
    unread.set("u2", 5);
    hub.refreshAll();
    await hub.settled();
    expect(counts(a.fake)).toEqual([1, 3]);
    expect(counts(b.fake)).toEqual([1, 5]);
  });

  it("ends every stream at shutdown and takes no new ones", async () => {
    makeHub();
    const tabs = [open("u1"), open("u2"), open("u2")];
    hub.closeAll();
    expect(tabs.map((t) => t.fake.ended)).toEqual([true, true, true]);
    expect(hub.size).toBe(0);
    expect(open("u1").result.kind).toBe("ERROR");
  });
});
