import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import { documentEncoding } from "#server/platform/http/document-encoding";
import { bioCspFor } from "./style";

/** The policy of a response with no style element (text, images, redirects): nothing may load or run. */
export const NO_STYLE_CSP = bioCspFor("");

/** Headers every bio host response carries besides its CSP (HSTS is added for https). Never Set-Cookie. */
const SECURITY: string[] = [
  "X-Content-Type-Options", "nosniff",
  "Referrer-Policy", "strict-origin-when-cross-origin",
  "X-Frame-Options", "DENY",
  "Cross-Origin-Opener-Policy", "same-origin",
];
const HSTS = ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"];

const PLAIN = SECURITY;
const SECURE = [...SECURITY, ...HSTS];

/** The host's security headers with a document's CSP, for a response written without `send` (a 304). */
export function securityHeadersFor(https: boolean, csp = NO_STYLE_CSP): string[] {
  return ["Content-Security-Policy", csp, ...(https ? SECURE : PLAIN)];
}

export type Encoding = "br" | "gzip" | "identity";

// Browsers send a handful of distinct Accept-Encoding values: remember what each negotiates to (bounded).
const negotiated = new Map<string, Encoding>();

/** The variant to send, negotiated as the app negotiates its documents (server/platform/http/document-encoding.ts). */
export function encodingFor(acceptEncoding: string | undefined): Encoding {
  const header = acceptEncoding ?? "";
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    encoding = documentEncoding(header || null) ?? "identity";
    if (negotiated.size < 100 && header.length <= 200) negotiated.set(header, encoding);
  }
  return encoding;
}

/** An HTML document in three encodings, made once, with its own CSP. */
export type EncodedHtml = Record<Encoding, Buffer> & { csp: string };

export function encodeOnce(html: string): EncodedHtml {
  const identity = Buffer.from(html, "utf8");
  return {
    csp: bioCspFor(html),
    identity,
    br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: zlib.gzipSync(identity, { level: 9 }),
  };
}

type Sent = {
  status: number;
  https: boolean;
  body: Buffer;
  contentType: string;
  encoding?: Encoding;
  headers?: string[];
  /** The document's own policy (`bioCspFor`); anything else gets one that allows no style. */
  csp?: string;
};

/** Writes a whole response at once: status, the host's headers, Content-Length, body (none for HEAD: Node leaves it out). */
export function send(res: ServerResponse, { status, https, body, contentType, encoding = "identity", headers = [], csp }: Sent): void {
  const all = [
    "Content-Type", contentType,
    "Content-Length", String(body.length),
    ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
    ...headers,
    ...securityHeadersFor(https, csp),
  ];
  res.writeHead(status, all);
  res.end(body);
}

/** A short plain-text answer (405, 414, 400, 503). */
export function sendText(res: ServerResponse, status: number, https: boolean, text: string, headers: string[] = []): void {
  send(res, { status, https, body: Buffer.from(`${text}\n`), contentType: "text/plain; charset=utf-8", headers: ["Cache-Control", "no-store", ...headers] });
}
