import { devices, request as playwrightRequest, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import { startCluster, type Cluster } from "#tests/support/cluster";
import { E2E_TEST_ROUTES_SECRET, TEST_ROUTES_SECRET_HEADER } from "#tests/support/e2e-secret";
import { testHooks } from "#tests/support/test-hooks-client";
import { DEMO, expect, linkIn, payWithTestCard, signIn, signUp, test, uniqueEmail, waitForMail } from "./fixtures";

/**
 * Two app processes on one PostgreSQL database behind Debian's nginx (tests/support/cluster.ts,
 * ADR 0045). Everything a person does goes through the balancer, round robin, and each answer
 * names the process that gave it (X-Upstream): a creator's whole journey, limits and counts that
 * must be exact whichever process answers, and a process killed with SIGKILL in the middle of
 * writes, which must lose no acknowledged write and come back when started again.
 *
 * Needs PostgreSQL: the `cluster` project of playwright.config.ts exists only when DATABASE_URL
 * is set (npm test runs it then), and startCluster says so if it is not.
 */
test.describe.configure({ mode: "default" });

const BROWSER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const STREAM = "/api/notifications/stream";

let cluster: Cluster;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const started = Date.now();
  cluster = await startCluster();
  console.log(`cluster: two processes (the first seeding) and nginx ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test.afterAll(async () => {
  await cluster?.stop();
});

const clientAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** A browser of its own (its own client network) on `baseURL`, noting which process answered what. */
async function browserOn(browser: Browser, baseURL: string, served: string[] = []): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    ...devices["Desktop Chrome"],
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(), [TEST_ROUTES_SECRET_HEADER]: E2E_TEST_ROUTES_SECRET },
  });
  context.on("response", (response) => {
    const upstream = response.headers()["x-upstream"];
    if (upstream && (response.url().startsWith(cluster.origin) || response.url().startsWith(cluster.bioOrigin))) served.push(upstream);
  });
  return { context, page: await context.newPage() };
}

/** The browser's session and client network, on one process only (nginx's pinned port). */
async function pinnedRequest(context: BrowserContext, index: 0 | 1): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: cluster.apps[index].pinnedOrigin,
    storageState: await context.storageState(),
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(), [TEST_ROUTES_SECRET_HEADER]: E2E_TEST_ROUTES_SECRET },
  });
}

async function verifiedCreator(page: Page, name: string): Promise<string> {
  const email = uniqueEmail("cluster");
  await signUp(page, { email, password: "tidy-harbor-42", name });
  await expect(page).toHaveURL("/app/verify");
  const link = linkIn(await waitForMail(email, { subject: /Verify your email/ }), "/app/verify");
  expect(link.startsWith(cluster.origin)).toBe(true);
  await page.goto(link);
  await expect(page).toHaveURL("/app");
  return email;
}

const menuLink = (page: Page) => page.locator('header a[href="/app/notifications"]');
const notificationsText = (count: number) => (count > 0 ? `Notifications (${count})` : "Notifications");

test("a creator's journey through the balancer: sign up, bio page, tip, refund, and the live count on a tab of the other process", async ({ browser }) => {
  test.setTimeout(150_000);
  const served: string[] = [];
  const { context, page } = await browserOn(browser, cluster.origin, served);
  const name = `Cluster Maker ${randomBytes(3).toString("hex")}`;
  await verifiedCreator(page, name);
  await testHooks(page.request).paymentsReady();
  const ending = `cluster_${randomBytes(4).toString("hex")}`;
  const created = await page.request.post("/app/account/bizbio/new", { form: { name, customEnding: ending, blurb: "Made on two processes." }, maxRedirects: 0 });
  expect(created.status(), await created.text()).toBe(302);

  // A tab served only by the second process, with its live count open.
  const other = await context.newPage();
  const streamOpen = other.waitForResponse((response) => response.url().endsWith(STREAM) && response.status() === 200);
  const tab = await other.goto(`${cluster.apps[1].pinnedOrigin}/app`);
  expect(tab!.headers()["x-upstream"]).toBe(cluster.apps[1].upstream);
  await streamOpen;
  const onFirst = await pinnedRequest(context, 0);
  const unread = async () => (await testHooks(onFirst).notify({ do: "count" })).unread;
  await expect(menuLink(other)).toHaveText(notificationsText(await unread()));

  // A fan tips $5 on the bio page and pays at the sandbox; its event comes back through nginx.
  const { context: fanContext, page: fan } = await browserOn(browser, cluster.origin, served);
  await fan.goto(`${cluster.bioOrigin}/${ending}`);
  await fan.getByRole("region", { name: `Support ${name}` }).getByRole("link", { name: "$5", exact: true }).click();
  await expect(fan).toHaveURL(`/app/payments/checkout?page=${ending}&kind=tip&amount=500`);
  await fan.getByLabel("Sponsor email").fill("fan@e2e.example");
  await fan.getByLabel("Message").fill("From both processes");
  await fan.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(fan).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await payWithTestCard(fan);
  await expect(fan.getByText(`Your tip of $5.00 to ${name} was successful.`)).toBeVisible({ timeout: 30_000 });

  // The payment's alert, written by whichever process took the webhook, reaches the tab on the second.
  const afterTip = await unread();
  expect(afterTip).toBeGreaterThan(0);
  await expect(menuLink(other)).toHaveText(notificationsText(afterTip), { timeout: 5_000 });
  // Alerts made on the first process, counted live on the second: exactly.
  await testHooks(onFirst).notify({ do: "send", n: 2 });
  await expect(menuLink(other)).toHaveText(notificationsText(afterTip + 2), { timeout: 5_000 });
  await testHooks(onFirst).notify({ do: "read" });
  await expect(menuLink(other)).toHaveText("Notifications", { timeout: 5_000 });

  // The creator refunds the tip; the list follows the provider's refund event.
  await page.goto("/app/account/sponsors/payments");
  const card = page.getByRole("listitem").filter({ hasText: "fan@e2e.example" });
  await card.getByRole("button", { name: "Refund", exact: true }).click();
  await card.getByRole("button", { name: "Yes, refund" }).click();
  await expect(card.getByText("Status: Refunded")).toBeVisible({ timeout: 20_000 });
  const ledger = await cluster.query<{ kind: string }>(
    `select l.kind from ledger_entries l join sponsor_sessions s on s.id = l.session_id join bio_pages p on p.id = s.bio_page_id
     where p.custom_ending = $1 order by l.created`,
    [ending],
  );
  expect(ledger.map((row) => row.kind)).toEqual(["payment", "refund"]);

  // Round robin: both processes answered the journey's requests through the balancer.
  const upstreams = new Set(served.flatMap((value) => value.split(", ")));
  expect([...upstreams].sort()).toEqual(cluster.apps.map((app) => app.upstream).sort());
  await onFirst.dispose();
  await fanContext.close();
  await context.close();
});

test("rate limits and bio page views are exact across both processes", async ({ browser }) => {
  test.setTimeout(90_000);
  const [first, second] = await Promise.all([0, 1].map((index) => playwrightRequest.newContext({ baseURL: cluster.apps[index as 0 | 1].pinnedOrigin })));
  const byTurn = [first!, second!];

  // Password-reset requests: ten per network an hour, counted in PostgreSQL; the eleventh is refused,
  // whichever process it reaches.
  const network = clientAddress();
  const resets: Array<[number, string]> = [];
  for (let i = 0; i < 11; i++) {
    const response = await byTurn[i % 2]!.post("/signin", {
      form: { intent: "reset", email: uniqueEmail(`reset${i}`) },
      headers: { "X-Forwarded-For": network },
    });
    resets.push([response.status(), response.headers()["x-upstream"]!]);
  }
  const alternating = (n: number) => Array.from({ length: n }, (_, i) => cluster.apps[i % 2]!.upstream);
  expect(resets.map(([, upstream]) => upstream)).toEqual(alternating(11));
  expect(resets.map(([status]) => status)).toEqual([...Array(10).fill(200), 429]);

  // Sign-in failures: five pass, the sixth waits, across both processes.
  const guesser = `2001:db8:${randomInt(1, 0xffff).toString(16)}:1::1`;
  const failures: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await byTurn[i % 2]!.post("/signin", {
      form: { intent: "signin", email: uniqueEmail("guess"), password: "wrong-password-1" },
      headers: { "X-Forwarded-For": guesser },
    });
    failures.push(response.status());
  }
  expect(failures).toEqual([401, 401, 401, 401, 401, 429]);

  // Views of the demo page: K people from K networks through the balanced bio host, then the
  // owner's insights, read on either process, show exactly K more once both have written them,
  // however many times those people look again through either process within the half hour.
  const { context, page } = await browserOn(browser, cluster.origin);
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  const [{ id }] = (await cluster.query<{ id: string }>("select id from bio_pages where custom_ending = 'mayamakes'")) as [{ id: string }];
  const allTime = async () => {
    await page.goto(`/app/account/bizbio/${id}/insights`);
    return Number((await page.getByText(/^[\d,]+ views? all time$/).innerText()).replace(/\D/g, ""));
  };
  const before = await allTime();
  const K = 24;
  const views = await Promise.all(Array.from({ length: K }, (_, i) => bioView(`/mayamakes`, `10.77.${i >> 8}.${(i & 255) + 1}`)));
  expect(views.map((view) => view.status)).toEqual(Array(K).fill(200));
  expect(new Set(views.map((view) => view.upstream)).size).toBe(2);
  // A second look from the same networks is not another view, whether it reaches the same process
  // or the other one (which learns of the first from the database when it writes its batch).
  const portOf = (upstream: string) => Number(upstream.split(":")[1]);
  const otherThan = (upstream: string) => cluster.apps.find((app) => app.upstream !== upstream)!.upstream;
  await Promise.all(views.slice(0, 4).map((view, i) => bioView(`/mayamakes`, `10.77.0.${i + 1}`, portOf(view.upstream))));
  const across = await Promise.all(views.slice(4, 12).map((view, i) => bioView(`/mayamakes`, `10.77.0.${i + 5}`, portOf(otherThan(view.upstream)))));
  expect(across.map((view, i) => view.upstream !== views[i + 4]!.upstream)).toEqual(Array(8).fill(true));

  await expect.poll(allTime, { timeout: 10_000 }).toBe(before + K);
  // Both counters flush at least once a second: nothing more arrives later.
  await page.waitForTimeout(2_500);
  expect(await allTime()).toBe(before + K);
  await context.close();
  await Promise.all(byTurn.map((request) => request.dispose()));
});

test("an API key has one budget across both processes, and a webhook event is delivered once whichever process claims it", async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page } = await browserOn(browser, cluster.origin);
  await verifiedCreator(page, "Cluster Integrator");
  await page.goto("/app/account/api-keys");
  await page.getByLabel("Name").fill("Overlay");
  await page.getByRole("group", { name: "Notifications" }).getByLabel("Read", { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByTestId("new-api-key").getByLabel("API key").inputValue();

  // Ten requests a minute for this key (API_RATE_LIMIT_PER_MINUTE in the cluster), counted in
  // PostgreSQL: alternating between the processes, the eleventh is refused by whichever gets it.
  const [first, second] = await Promise.all([0, 1].map((index) => playwrightRequest.newContext({ baseURL: cluster.apps[index as 0 | 1].pinnedOrigin })));
  const byTurn = [first!, second!];
  const answers: Array<{ status: number; upstream: string; remaining: string | undefined }> = [];
  for (let i = 0; i < 11; i++) {
    const response = await byTurn[i % 2]!.get("/api/v1/notifications", { headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": clientAddress() } });
    answers.push({ status: response.status(), upstream: response.headers()["x-upstream"]!, remaining: response.headers()["ratelimit"] });
  }
  expect(answers.map((answer) => answer.upstream)).toEqual(Array.from({ length: 11 }, (_, i) => cluster.apps[i % 2]!.upstream));
  expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), 429]);
  expect(answers.map((answer) => /r=(\d+)/.exec(answer.remaining ?? "")?.[1])).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0", "0"]);

  // Both processes' workers poll the one queue: a test event reaches the receiver once.
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    received.push(String(req.headers["webhook-id"]));
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as { port: number }).port;
  try {
    await page.goto("/app/account/webhooks");
    await page.getByLabel("Endpoint address").fill(`http://127.0.0.1:${port}/in`);
    await page.getByRole("checkbox", { name: /Notification created/ }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("link", { name: /Go to the endpoint/ }).click();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
    // Long enough for the other process's next poll: nothing arrives twice.
    await page.waitForTimeout(2_500);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/^msg_/);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
    await context.close();
    await Promise.all(byTurn.map((request) => request.dispose()));
  }
});

/** One person opening a bio page, through nginx's bio host (or, with `port`, straight to one process). */
function bioView(path: string, forwardedFor: string, port?: number): Promise<{ status: number; upstream: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        {
          host: "127.0.0.1",
          port: port ?? cluster.bioPort,
          path,
          headers: { host: new URL(cluster.bioOrigin).host, "user-agent": BROWSER_AGENT, "x-forwarded-for": port ? `${forwardedFor}, 127.0.0.1` : forwardedFor },
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode!, upstream: String(response.headers["x-upstream"] ?? `127.0.0.1:${port}`) }));
        },
      )
      .on("error", reject);
  });
}

type Attempt = { startedAt: number; endedAt: number; status: number; id?: string; upstream?: string };

test("a process killed with SIGKILL under writes loses no acknowledged write; nginx routes around it and it rejoins", async ({ browser }) => {
  test.setTimeout(150_000);
  const { context, page } = await browserOn(browser, cluster.origin);
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  const [killed, survivor] = cluster.apps;
  const run = randomBytes(4).toString("hex");
  const attempts: Attempt[] = [];

  // Twenty writers post opportunities through the balancer, one after another each. Once both
  // processes have acknowledged writes, the first is killed; the writers go on for 4 s more.
  let stopAt = Number.POSITIVE_INFINITY;
  const writer = async (w: number) => {
    for (let i = 0; Date.now() < stopAt; i++) {
      const attempt: Attempt = { startedAt: Date.now(), endedAt: 0, status: 0 };
      try {
        const response = await page.request.post("/app/opportunities/new", {
          form: { title: `Cluster load ${run} ${w}-${i}`, description: "Written while a process dies.", bullets: "", organization: "", website: "", minContribution: "", deadlineDate: "", deadlineTime: "", deadlineTimeZone: "", contactName: "", contactEmail: "", contactPhone: "" },
          maxRedirects: 0,
          timeout: 30_000,
        });
        attempt.status = response.status();
        attempt.upstream = response.headers()["x-upstream"];
        attempt.id = /^\/app\/opportunities\/(\w+)$/.exec(response.headers()["location"] ?? "")?.[1];
      } catch {
        attempt.status = -1;
      }
      attempt.endedAt = Date.now();
      attempts.push(attempt);
    }
  };
  const started = Date.now();
  const load = Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));
  const ackedBy = (upstream: string) => attempts.filter((attempt) => attempt.status === 302 && attempt.upstream === upstream).length;
  await expect.poll(() => Math.min(ackedBy(killed.upstream), ackedBy(survivor.upstream)), { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
  const killStarted = Date.now();
  await cluster.kill(0);
  const killedAt = Date.now();
  stopAt = killedAt + 4_000;
  await load;

  const acknowledged = attempts.filter((attempt) => attempt.status === 302 && attempt.id);
  const refused = attempts.filter((attempt) => !(attempt.status === 302 && attempt.id));
  console.log(`cluster load: ${attempts.length} posts, ${acknowledged.length} acknowledged, ${refused.length} not (statuses ${[...new Set(refused.map((a) => a.status))].join(", ") || "none"}), killed at +${killStarted - started} ms`);
  // Only requests in flight when the process died may have failed (a POST nginx had already sent
  // is never sent again); everything asked after that was answered by the survivor.
  for (const attempt of refused) expect(attempt.startedAt).toBeLessThan(killedAt);
  const after = attempts.filter((attempt) => attempt.startedAt > killedAt);
  expect(after.length).toBeGreaterThanOrEqual(10);
  for (const attempt of after) {
    expect(attempt.status).toBe(302);
    expect(attempt.upstream!.split(", ").at(-1)).toBe(survivor.upstream);
  }

  // Every acknowledged write is in the database.
  const stored = await cluster.query<{ id: string }>("select id from opportunity_posts where id = any($1)", [acknowledged.map((attempt) => attempt.id)]);
  expect(stored.length).toBe(acknowledged.length);
  const all = await cluster.query<{ n: number }>("select count(*)::int as n from opportunity_posts where title like $1", [`Cluster load ${run} %`]);
  expect(all[0]!.n).toBeGreaterThanOrEqual(acknowledged.length);
  expect(all[0]!.n).toBeLessThanOrEqual(acknowledged.length + refused.length);

  // Started again, the process is ready and nginx sends it requests again, the same session included.
  await cluster.restart(0);
  await expect
    .poll(async () => {
      const response = await page.request.get("/app", { maxRedirects: 0 });
      return response.status() === 200 ? response.headers()["x-upstream"] : `status ${response.status()}`;
    }, { timeout: 15_000, intervals: [250] })
    .toBe(killed.upstream);
  await context.close();
});
