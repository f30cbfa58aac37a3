import express from "express";
import type { Captcha } from "./captcha";

export const CAPTCHA_CHALLENGE_PATH = "/api/captcha/challenge";

/** The ALTCHA widget fetches a fresh signed challenge here; other providers issue their own. */
export function captchaRouter(captcha: Captcha): express.Router {
  const router = express.Router();
  router
    .route(CAPTCHA_CHALLENGE_PATH)
    .get(async (_req, res) => {
      // Every challenge is single-use: a cached one would be refused.
      res.set("Cache-Control", "no-store");
      if (captcha.provider !== "altcha") {
        res.status(404).json({ error: `This site uses ${captcha.provider}, which issues its own challenges.` });
        return;
      }
      res.json(await captcha.createChallenge());
    })
    .all((_req, res) => {
      res.set("Allow", "GET, HEAD").status(405).json({ error: "Method not allowed" });
    });
  return router;
}
