import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { buildServerIfMissing } from "#tests/support/built-server";
import { onServer } from "#tests/support/database-snapshots";

/**
 * 10,000 concurrent views split across two app processes on one
 * PostgreSQL database, then both stopped with SIGTERM: the views record and
 * today's row must say exactly 10,000. PostgreSQL only (several processes
 * cannot share PGlite's data folder). Each view comes from a client address
 * of its own (X-Forwarded-For through the trusted loopback proxy), since one
 * client network counts once per page per half hour. It runs the built server (`node
 * server.js`), building it first when there is no build yet.
 */
const VIEWS = 10_000;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const BIO_HOST = "bio.localhost:4400";

describe.skipIf(!process.env.DATABASE_URL)("bio page views across two app processes on PostgreSQL", () => {
  const name = `sg_test_views_${randomBytes(5).toString("hex")}`;
  // Vitest still collects a skipped describe's body: without DATABASE_URL a placeholder keeps `new URL` from throwing.
  const adminUrl = process.env.DATABASE_URL ?? "postgres://skipped@127.0.0.1/skipped";
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];

  const admin = <T>(work: (client: pg.Client) => Promise<T>, database = adminUrl): Promise<T> => onServer(database, work);

  beforeAll(async () => {
    buildServerIfMissing();
    await admin((client) => client.query(`create database ${name}`));
    const env = (port: number) => ({
      DATABASE_URL: url.toString(),
      PORT: String(port),
      HOST: "127.0.0.1",
      SESSION_SECRET: "views-test-session-secret-0123456789abcdef",
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      BIO_ORIGIN: `http://${BIO_HOST}`,
      TRUST_PROXY: "loopback",
      DATA_DIR: dataDirs[dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "sg-views-"))) - 1]!,
    });
    // One after the other: the first migrates and seeds the empty database.
    for (let i = 0; i < 2; i++) servers.push(await startServerProcess(env(await freePort())));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    for (const dir of dataDirs) fs.rmSync(dir, { force: true, recursive: true });
    await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });

  it("counts 10,000 concurrent views exactly once, however they were split", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 150 });
    const ports = servers.map((server) => Number(new URL(server.url).port));
    const view = (port: number, client: number) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: "/mayamakes", agent, headers: { host: BIO_HOST, "user-agent": BROWSER, "accept-encoding": "br", "x-forwarded-for": `10.9.${client >> 8}.${client & 255}` } }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode!));
          })
          .on("error", reject);
      });
    const statuses = await Promise.all(Array.from({ length: VIEWS }, (_, i) => view(ports[i % 2]!, i)));
    agent.destroy();
    expect(statuses.filter((status) => status === 200)).toHaveLength(VIEWS);

    // SIGTERM: each process writes what it still counts before it closes the database.
    const codes = await Promise.all(servers.map((server) => server.stop("SIGTERM")));
    expect(codes).toEqual([0, 0]);

    const rows = await admin(
      (client) =>
        client.query<{ views: string; today: number | null }>(
          `select v.count::text as views,
                  (select count from bio_page_daily_views d where d.page_id = p.id and d.day = (now() at time zone 'utc')::date) as today
           from bio_pages p join bio_page_views v on v.page_id = p.id where p.custom_ending = 'mayamakes'`,
        ),
      url.toString(),
    );
    expect(rows.rows[0]).toEqual({ views: String(VIEWS), today: VIEWS });
  });
});
