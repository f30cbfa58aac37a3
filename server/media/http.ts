import type { RequestHandler } from "express";
import { PHOTO_ACTION, PHOTO_MAX_TEXT } from "#isomorphic/photo-upload";
import type { BodyLimitRule } from "#server/http/body-limit";
import { sendRefusal } from "#server/http/refusal";
import type { PhotoServer } from "./serve";
import { PHOTO_BODY_LIMIT } from "./upload-form";

/** The photo form's body may carry the photo: its own cap, far above a text form's. */
export const photoBodyRule: BodyLimitRule = {
  prefix: PHOTO_ACTION,
  limit: PHOTO_BODY_LIMIT,
  refuse: (req, res) =>
    sendRefusal(req, res, 413, "That photo is too large", `Profile photos can be up to ${PHOTO_MAX_TEXT}. Go back, choose a smaller photo and upload it again.`),
};

/**
 * What an image needs of the page headers, since it is answered before them: never taken for
 * another type, nothing run inside it if opened on its own, and only this site's pages embed it.
 */
const IMAGE_HEADERS = ["X-Content-Type-Options", "nosniff", "Content-Security-Policy", "default-src 'none'", "Cross-Origin-Resource-Policy", "same-site"];

/** `GET /media/photos/…` on the app host (the bio host has its own, server/bio/host/photos.ts). */
export function photoHandler(photos: PhotoServer): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const write = ({ status, headers, body }: Awaited<ReturnType<PhotoServer["answer"]>>) => {
      res.writeHead(status, [...headers, ...IMAGE_HEADERS]);
      res.end(status === 304 ? undefined : body);
    };
    // Mounted under its prefix, where req.path has lost it: the whole address is what is matched.
    const answer = photos.answer(req.originalUrl.split("?")[0]!, req.headers["if-none-match"]);
    if (answer instanceof Promise) answer.then(write, next);
    else write(answer);
  };
}
