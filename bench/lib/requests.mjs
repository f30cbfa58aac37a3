// Small helpers both page benchmarks share: raw responses and an empty PostgreSQL database.
import http from "node:http";

/** One GET as sent on the wire: status, headers (parsed and raw) and the body bytes, not decompressed. */
export function fetchRaw(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const pieces = [];
        res.on("data", (piece) => pieces.push(piece));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(pieces) }));
      })
      .on("error", reject);
  });
}

/** Drops and creates the database `url` names, so a run starts from migrations and seed. */
export async function emptyPostgres(url) {
  const { default: pg } = await import("pg");
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
}

/** Signs a demo account in through the sign-in form, as a browser does; the session cookie to send. */
export async function signIn(base, email, password = "sponsorgrid-demo") {
  const response = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ intent: "signin", email, password, redirectTo: "/app" }),
  });
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (!cookie) throw new Error(`sign-in set no cookie (${response.status})`);
  return cookie;
}
