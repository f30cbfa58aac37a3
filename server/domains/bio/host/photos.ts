import type { IncomingMessage, ServerResponse } from "node:http";
import type { PhotoAnswer, PhotoServer } from "#server/domains/media/serve";
import { securityHeadersFor, send } from "./responses";

/** A profile photo on the bio host (its pages' `<img>`, which `img-src 'self'` allows), with the host's own headers. */
export function sendPhoto(req: IncomingMessage, res: ServerResponse, https: boolean, photos: PhotoServer, path: string): void | Promise<void> {
  const answer = photos.answer(path, req.headers["if-none-match"]);
  const write = ({ status, headers, body }: PhotoAnswer) => {
    if (status === 304) {
      res.writeHead(304, [...headers.slice(2), ...securityHeadersFor(https)]);
      res.end();
      return;
    }
    send(res, { status, https, body, contentType: headers[1]!, headers: headers.slice(2) });
  };
  return answer instanceof Promise ? answer.then(write) : write(answer);
}
