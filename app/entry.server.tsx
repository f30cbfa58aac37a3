import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isDatabaseUnavailable, metOutage, noteOutage } from "#server/platform/db/unavailable";
import { outageResponse } from "#server/platform/http/outage";
import { encodeDocument } from "#server/platform/http/document-encoding";
import type { RenderInput } from "#server/platform/http/rendered-documents";
import { NonceProvider } from "./lib/nonce";

export const streamTimeout = 5_000;

/**
 * Renders the whole document before sending it (onAllReady): pages stay
 * complete for crawlers and no-JS readers, and React emits no inline
 * streaming scripts that the CSP would have to allow.
 *
 * Since nothing is sent before the end anyway, the document goes out as one
 * buffer, not as the ~2 KB pieces React writes: React Router's Node adapter
 * flushes the compressor after every piece, which cost about four times the
 * CPU of compressing the page in one go and ~20 % in size (bench/README.md).
 * For the same reason the finished document is compressed here, in one pass
 * (server/platform/http/document-encoding.ts), and sent with its length.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A loader or action could not reach the database: 503 and "back in a moment", not the 500 page.
  if (metOutage(loadContext)) return outageResponse();
  // Guest pages go out without a nonce (their policy lists script hashes: server/platform/page-cache/).
  const nonce = loadContext.cspNonce || undefined;
  const send = (html: Buffer<ArrayBuffer>) =>
    encodeDocument(html, request.headers.get("Accept-Encoding")).then(({ body, encoding }) => {
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.append("Vary", "Accept-Encoding");
      if (encoding) responseHeaders.set("Content-Encoding", encoding);
      responseHeaders.set("Content-Length", String(body.length));
      return new Response(body, { headers: responseHeaders, status: responseStatusCode });
    });

  // The same page from the same data was rendered before: that document, with this request's nonce.
  const { renderedDocuments } = loadContext;
  const key = renderedDocuments.keyOf(renderInput(request, responseStatusCode, routerContext, nonce));
  const kept = key ? renderedDocuments.take(key, nonce ?? null) : null;
  if (kept !== null) {
    void routerContext.serverHandoffStream?.cancel().catch(() => {});
    return send(Buffer.from(kept));
  }

  loadContext.charge("renders");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const pieces: Buffer[] = [];
          const document = new Writable({
            write(piece: Buffer, _encoding, done) {
              pieces.push(piece);
              done();
            },
            final(done) {
              const html = Buffer.concat(pieces);
              // Kept only if nothing went wrong while rendering (onError sets 500).
              if (key && responseStatusCode === 200) renderedDocuments.keep(key, { html: html.toString("utf8"), nonce: nonce ?? null });
              send(html).then((response) => {
                resolve(response);
                done();
              }, (error: unknown) => {
                reject(error);
                done();
              });
            },
          });
          pipe(document);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error, url: request.url }, "render error");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}

/** What a render is made from, for the kept documents' key (server/platform/http/rendered-documents.ts). */
function renderInput(request: Request, status: number, routerContext: EntryContext, nonce: string | undefined): RenderInput {
  const { matches, loaderData, actionData, errors } = routerContext.staticHandlerContext;
  const deepest = matches[matches.length - 1]?.route.id;
  const handle = deepest ? (routerContext.routeModules[deepest]?.handle as { rendersFromDataOnly?: boolean } | undefined) : undefined;
  return {
    method: request.method,
    url: request.url,
    status,
    optedIn: handle?.rendersFromDataOnly === true,
    loaderData,
    actionData,
    errors,
    nonce: nonce ?? null,
  };
}

/**
 * Server-side log of loader/action/render errors; the page never shows them. A caller's mistake
 * (a 4xx such as 405 for a method a route does not take) is no server error and is not logged
 * here (the access line has it); a database outage is noted for the answer's 503 and logged as a
 * warning.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const { logger } = context as AppLoadContext;
  if (isDatabaseUnavailable(error)) {
    noteOutage(context as object);
    logger.warn({ err: error, url: request.url }, "the database cannot be reached; answered 503");
    return;
  }
  logger.error({ err: error, url: request.url }, "route error");
};

/** A data request (client navigation, a form's fetch) that met a database outage: 503 too. */
export const handleDataRequest: HandleDataRequestFunction = (response, { context }) =>
  metOutage(context as object) ? new Response(null, { status: 503, headers: outageResponse().headers }) : response;
