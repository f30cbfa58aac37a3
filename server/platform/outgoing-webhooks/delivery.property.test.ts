import { spawn, type ChildProcess } from "node:child_process";
import { count, eq, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { user, webhookDeliveries, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { createMigratedDatabase, ENGINES, migratedDatabase } from "#tests/support/databases";
import { propertyRuns } from "#tests/support/property-runs";
import { startWebhookReceiver, type ReceiverAnswer } from "#tests/support/webhook-receiver";
import { queueWebhookEvent } from "./queue";
import { generateSigningSecret, sealSecret } from "./secrets";
import { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from "./worker";

/**
 * The delivery guarantees end to end: 1,000 events (300 in a quick run) to a real receiver on loopback that fails at
 * random (500s, hangs past the sender's timeout, connection resets), with the worker stopped
 * mid-way — on PostgreSQL a child process killed with SIGKILL, on PGlite (one process only) a
 * worker closed with claims left leased as a dead process leaves them — and another taking over.
 */
// 1,000 in `npm run test:deep`, a quick 300 in `npm test` (tests/support/property-runs.ts).
const EVENTS = propertyRuns({ quick: 300, deep: 1_000 });
const SESSION_SECRET = "delivery-property-session-secret-0123";
const logger = pino({ level: process.env.WEBHOOK_TEST_PROGRESS ? "error" : "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Small, fast, and never giving up or disabling within the test. */
const WORKER_OPTIONS = {
  concurrency: 8,
  pollMs: 20,
  leaseMs: 1_500,
  timeoutMs: 250,
  drainMs: 50,
  retryScheduleMs: Array<number>(60).fill(15),
  disableAfter: { failures: 1_000_000, failingForMs: 1e12 },
} satisfies Partial<WebhookWorkerOptions>;

/** A seeded generator: a failing run can be run again as it was. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Endpoint = { id: string; secrets: string[] };

async function setUp(db: Db, origin: string) {
  // Three accounts: the first with two endpoints (one of them mid-rotation: two valid secrets), four objects each.
  const accounts: { uid: string; keys: string[] }[] = [];
  const endpoints: Endpoint[] = [];
  for (let a = 0; a < 3; a += 1) {
    const uid = `prop-${a}-${nanoid(6)}`;
    await db.insert(user).values({ id: uid, name: uid, email: `${uid}@receiver.example`, emailVerified: true });
    accounts.push({ uid, keys: [0, 1, 2, 3].map((k) => `payment:${uid}-${k}`) });
    for (let e = 0; e < (a === 0 ? 2 : 1); e += 1) {
      const id = `we_${nanoid(12)}`;
      const secret = generateSigningSecret();
      const previous = a === 0 && e === 1 ? generateSigningSecret() : null;
      await db.insert(webhookEndpoints).values({
        id,
        uid,
        url: `${origin}/in/${id}`,
        events: ["payment.succeeded", "payment.refunded"],
        secretCiphertext: sealSecret(secret, SESSION_SECRET),
        previousSecretCiphertext: previous && sealSecret(previous, SESSION_SECRET),
        previousSecretExpiresAt: previous ? new Date(Date.now() + 3_600_000) : null,
      });
      endpoints.push({ id, secrets: previous ? [secret, previous] : [secret] });
    }
  }
  return { accounts, endpoints };
}

/** Queues events `from`..`to`-1, twenty to a transaction, spread over the accounts and their objects. */
async function queueEvents(db: Db, accounts: { uid: string; keys: string[] }[], from: number, to: number, random: () => number) {
  for (let start = from; start < to; start += 20) {
    await db.transaction(async (tx) => {
      for (let n = start; n < Math.min(start + 20, to); n += 1) {
        const account = accounts[Math.floor(random() * accounts.length)]!;
        const key = account.keys[Math.floor(random() * account.keys.length)]!;
        await queueWebhookEvent(tx, { uid: account.uid, type: random() < 0.8 ? "payment.succeeded" : "payment.refunded", orderingKey: key, data: { n, key } });
      }
    });
  }
}

function randomReceiver(seed: number) {
  const random = mulberry32(seed);
  return startWebhookReceiver((): ReceiverAnswer => {
    const roll = random();
    if (roll < 0.12) return { status: 500, body: "try later" };
    if (roll < 0.16) return "hang";
    if (roll < 0.22) return "reset";
    return { status: 200 };
  });
}

type Receiver = Awaited<ReturnType<typeof randomReceiver>>;

const answeredOk = (receipt: Receiver["receipts"][number]) => typeof receipt.answer === "object" && receipt.answer.status === 200;

/** Distinct (endpoint, event) pairs the receiver answered 2xx for. */
const deliveredPairs = (receiver: Receiver) => new Set(receiver.receipts.filter(answeredOk).map((r) => `${r.path}|${r.headers["webhook-id"]}`)).size;

async function waitForAllDelivered(db: Db, deadlineMs: number) {
  const started = Date.now();
  for (;;) {
    const [left] = await db.select({ n: count() }).from(webhookDeliveries).where(sql`${webhookDeliveries.status} <> 'delivered'`);
    if (left!.n === 0) return;
    if (Date.now() - started > deadlineMs) throw new Error(`${left!.n} deliveries still not delivered after ${deadlineMs} ms: ${JSON.stringify(await queueState(db))}`);
    await sleep(50);
  }
}

/** For a failure's message: where the rows stand. */
async function queueState(db: Db) {
  const result = await db.execute(sql`select status, (leased_until > now()) as leased, (next_attempt_at > now()) as waiting, count(*)::int as n
    from webhook_deliveries group by 1, 2, 3`);
  return (result as unknown as { rows: unknown[] }).rows;
}

async function waitForReceipts(receiver: Receiver, db: Db, pairs: number, deadlineMs: number) {
  const started = Date.now();
  while (deliveredPairs(receiver) < pairs) {
    if (Date.now() - started > deadlineMs) throw new Error(`only ${deliveredPairs(receiver)} of ${pairs} received after ${deadlineMs} ms: ${JSON.stringify(await queueState(db))}`);
    await sleep(10);
    if (process.env.WEBHOOK_TEST_PROGRESS && (Date.now() - started) % 1000 < 12) console.info("progress", deliveredPairs(receiver), receiver.receipts.length, Date.now() - started, JSON.stringify(await queueState(db)));
  }
}

/** Every guarantee, checked on what the receiver saw and what the database holds. */
async function checkEverything(db: Db, receiver: Receiver, endpoints: Endpoint[]) {
  const deliveries = await db.select().from(webhookDeliveries);
  const events = await db.select({ id: webhookEvents.id, sequence: webhookEvents.sequence, orderingKey: webhookEvents.orderingKey }).from(webhookEvents);
  expect(events).toHaveLength(EVENTS);
  expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
  const sequenceOf = new Map(events.map((e) => [e.id, e]));

  // Each event reached each of its endpoints: the receiver answered 2xx at least once for the pair.
  const firstOk = new Map<string, number>();
  receiver.receipts.forEach((receipt, index) => {
    const key = `${receipt.path}|${receipt.headers["webhook-id"]}`;
    if (answeredOk(receipt) && !firstOk.has(key)) firstOk.set(key, index);
  });
  for (const delivery of deliveries) expect(firstOk.has(`/in/${delivery.endpointId}|${delivery.eventId}`), delivery.id).toBe(true);
  expect(firstOk.size).toBe(deliveries.length);

  // Per endpoint and object, the first successful receipts come in the events' order.
  const byObject = new Map<string, number[]>();
  for (const [key, index] of [...firstOk.entries()].sort((a, b) => a[1] - b[1])) {
    void index;
    const [path, eventId] = key.split("|") as [string, string];
    const event = sequenceOf.get(eventId)!;
    const object = `${path}|${event.orderingKey}`;
    byObject.set(object, [...(byObject.get(object) ?? []), event.sequence]);
  }
  expect(byObject.size).toBeGreaterThanOrEqual(12);
  for (const [object, sequences] of byObject) expect(sequences, object).toEqual([...sequences].sort((a, b) => a - b));

  // Every request, successful or not, carries signatures that verify with each valid secret of its endpoint.
  const secretsOf = new Map(endpoints.map((e) => [`/in/${e.id}`, e.secrets]));
  for (const receipt of receiver.receipts) {
    const secrets = secretsOf.get(receipt.path)!;
    expect(receipt.headers["webhook-signature"]!.split(" ")).toHaveLength(secrets.length);
    for (const secret of secrets) expect(new Webhook(secret).verify(receipt.body, receipt.headers)).toMatchObject({ data: { n: expect.any(Number) } });
  }
  // The receiver did fail at random, and the worker got through it.
  expect(receiver.receipts.filter((r) => !answeredOk(r)).length).toBeGreaterThan(EVENTS / 10);
}

describe.each(ENGINES)(`${EVENTS} webhook events through random failures and a restart, on %s`, (engine) => {
  const database = migratedDatabase(engine);

  it("every event arrives, in order per object, signed, across a worker that stopped mid-way with claims held", async () => {
    const started = Date.now();
    const db = database.db;
    const receiver = await randomReceiver(20_261_126);
    const workers: WebhookWorker[] = [];
    const make = () => {
      const worker = createWebhookWorker({ db, sessionSecret: SESSION_SECRET, logger, targets: "anywhere", mail: { mailer: createMailer({ db, from: "t@sponsorgrid.example", logger }), site: { appName: "S", supportEmail: "s@s.example", publicOrigin: "http://localhost" } }, ...WORKER_OPTIONS });
      workers.push(worker);
      return worker;
    };
    try {
      const { accounts, endpoints } = await setUp(db, receiver.origin);
      const random = mulberry32(7);
      await queueEvents(db, accounts, 0, EVENTS / 2, random);
      const first = make();
      first.start();
      // The rest arrive while the first worker is at it.
      await queueEvents(db, accounts, EVENTS / 2, EVENTS, random);
      first.kick();
      const [{ n: total }] = (await db.select({ n: count() }).from(webhookDeliveries)) as [{ n: number }];
      await waitForReceipts(receiver, db, total * 0.4, 30_000);
      await first.close();
      // What a process killed now leaves behind: due rows claimed, attempted or not, their lease running.
      const orphaned = await db.execute(sql`
        update webhook_deliveries set attempts = attempts + 1, leased_until = now() + interval '1 second'
         where id in (select id from webhook_deliveries where status = 'pending' order by event_sequence limit 30)
        returning id`);
      expect((orphaned as unknown as { rows: unknown[] }).rows.length).toBe(30);

      make().start();
      await waitForAllDelivered(db, 45_000);
      await checkEverything(db, receiver, endpoints);
      console.info(`${engine}: ${total} deliveries, ${receiver.receipts.length} requests, ${Date.now() - started} ms`);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await receiver.close();
    }
  }, 90_000);
});

// Only PostgreSQL is shared by processes: the embedded database lives inside its one process.
if (process.env.DATABASE_URL) {
  describe("a worker process killed with SIGKILL mid-way on PostgreSQL", () => {
    it("loses nothing: another process retakes its claims once their lease ran out, and every event arrives in order, signed", async () => {
      const started = Date.now();
      // A PostgreSQL database of its own, which the worker process opens too.
      const database = await createMigratedDatabase("postgres");
      const url = database.url!;
      const receiver = await randomReceiver(4_242);
      let child: ChildProcess | null = null;
      let survivor: WebhookWorker | null = null;
      try {
        const db = database.db;
        const { accounts, endpoints } = await setUp(db, receiver.origin);
        await queueEvents(db, accounts, 0, EVENTS, mulberry32(11));
        const [{ n: total }] = (await db.select({ n: count() }).from(webhookDeliveries)) as [{ n: number }];

        child = spawn(process.execPath, ["--import", "tsx", "tests/support/webhook-worker-child.ts", url, SESSION_SECRET, JSON.stringify(WORKER_OPTIONS)], { stdio: ["ignore", "pipe", "inherit"] });
        const running = new Promise<void>((resolve, reject) => {
          let out = "";
          child!.stdout!.on("data", (chunk: Buffer) => {
            out += chunk.toString();
            if (out.includes("started")) resolve();
          });
          child!.once("exit", (code, signal) => reject(new Error(`the worker process ended early (code ${code}, signal ${signal})`)));
          child!.once("error", reject);
        });
        await running;
        await waitForReceipts(receiver, db, total * 0.4, 30_000);
        child.kill("SIGKILL");
        await new Promise((resolve) => child!.once("exit", resolve));
        const killedAt = Date.now();
        // Claims the dead process held, attempted or not.
        const held = await db.select({ id: webhookDeliveries.id, leasedUntil: webhookDeliveries.leasedUntil }).from(webhookDeliveries).where(sql`${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.leasedUntil} > now()`);
        const before = deliveredPairs(receiver);
        expect(before).toBeLessThan(total);

        survivor = createWebhookWorker({ db, sessionSecret: SESSION_SECRET, logger, targets: "anywhere", mail: { mailer: createMailer({ db, from: "t@sponsorgrid.example", logger }), site: { appName: "S", supportEmail: "s@s.example", publicOrigin: "http://localhost" } }, ...WORKER_OPTIONS });
        survivor.start();
        await waitForAllDelivered(db, 45_000);
        await checkEverything(db, receiver, endpoints);
        // The dead process's claims were retaken, each attempted again only after its lease ran out.
        for (const claim of held) {
          const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, claim.id));
          expect(row!.status).toBe("delivered");
          expect(row!.finishedAt!.getTime()).toBeGreaterThanOrEqual(claim.leasedUntil!.getTime());
        }
        console.info(`postgres, killed child: ${total} deliveries, ${held.length} claims retaken, ${receiver.receipts.length} requests, ${Date.now() - started} ms (${Date.now() - killedAt} ms after the kill)`);
      } finally {
        child?.kill("SIGKILL");
        await survivor?.close();
        await receiver.close();
        await database.dispose();
      }
    }, 120_000);
  });
}
