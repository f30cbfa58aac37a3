import express from "express";
import { describe, expect, it } from "vitest";
import { backOfficeResponses } from "./back-office";

describe("backOfficeResponses", async () => {
  const app = express();
  app.use("/app/admin", backOfficeResponses());
  app.get("/app/admin/reports", (_req, res) => void res.set("Cache-Control", "public, max-age=600").send("queue"));
  app.get("/app/admin/missing", (_req, res) => void res.status(404).send("not here"));
  app.get("/elsewhere", (_req, res) => void res.set("Cache-Control", "public, max-age=60").send("public"));
  const server = app.listen(0);
  const base = await new Promise<string>((resolve) => server.on("listening", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));

  it("marks every back-office answer, even one a route tried to make public, as never stored and never indexed", async () => {
    for (const path of ["/app/admin/reports", "/app/admin/missing"]) {
      const response = await fetch(base + path);
      expect({ path, cache: response.headers.get("cache-control"), robots: response.headers.get("x-robots-tag") }).toEqual({ path, cache: "private, no-store", robots: "noindex, nofollow" });
    }
  });

  it("leaves the rest of the site alone", async () => {
    const response = await fetch(`${base}/elsewhere`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("x-robots-tag")).toBeNull();
    server.close();
  });
});
