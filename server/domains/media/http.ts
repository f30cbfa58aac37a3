import type { IncomingMessage, ServerResponse } from "node:http";
import { PHOTO_ACTION, PHOTO_MAX_TEXT } from "#isomorphic/photo-upload";
import type { BodyLimitRule } from "#server/platform/http/body-limit";
import { sendRefusal } from "#server/platform/http/refusal";
import { PHOTO_PATH_PREFIX, type PhotoAnswer, type PhotoServer } from "./serve";
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

/**
 * `GET /media/photos/…` on the app host, answered before Express as the bio host answers its
 * own (server/domains/bio/host/photos.ts): public, immutable bytes from memory need none of the page
 * middleware, which cost four times the bio host's rate (bench/README.md). Answers false for
 * any other request, which goes on to the app.
 */
export function appPhotoListener(photos: PhotoServer, onError: (error: unknown) => void) {
  const write = (res: ServerResponse, { status, headers, body }: PhotoAnswer) => {
    res.writeHead(status, [...headers, ...IMAGE_HEADERS]);
    res.end(status === 304 ? undefined : body);
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? "";
    if (!url.startsWith(PHOTO_PATH_PREFIX) || (req.method !== "GET" && req.method !== "HEAD")) return false;
    const queryAt = url.indexOf("?");
    const answer = photos.answer(queryAt === -1 ? url : url.slice(0, queryAt), req.headers["if-none-match"]);
    if (!(answer instanceof Promise)) write(res, answer);
    else {
      answer.then(
        (answered) => write(res, answered),
        (error: unknown) => {
          onError(error);
          if (res.headersSent) return res.end();
          res.writeHead(503, ["Content-Type", "text/plain; charset=utf-8", "Retry-After", "5", "Cache-Control", "no-store", ...IMAGE_HEADERS]);
          res.end("This photo can't be shown right now. Please try again in a moment.\n");
        },
      );
    }
    return true;
  };
}
