import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import { documentEncoding } from "#server/http/document-encoding";
import { BIO_CSP } from "./style";

/** Headers every bio host response carries (HSTS is added for https). Never Set-Cookie. */
const SECURITY: string[] = [
  "Content-Security-Policy", BIO_CSP,
  "X-Content-Type-Options", "nosniff",
  "Referrer-Policy", "strict-origin-when-cross-origin",
  "X-Frame-Options", "DENY",
  "Cross-Origin-Opener-Policy", "same-origin",
];
const HSTS = ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"];

const PLAIN = SECURITY;
const SECURE = [...SECURITY, ...HSTS];

/** The host's security headers, for a response written without `send` (a 304). */
export function securityHeadersFor(https: boolean): string[] {
  return https ? SECURE : PLAIN;
}

export type Encoding = "br" | "gzip" | "identity";

// Browsers send a handful of distinct Accept-Encoding values: remember what each negotiates to (bounded).
const negotiated = new Map<string, Encoding>();

/** The variant to send, negotiated as the app negotiates its documents (server/http/document-encoding.ts). */
export function encodingFor(acceptEncoding: string | undefined): Encoding {
  const header = acceptEncoding ?? "";
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    encoding = documentEncoding(header || null) ?? "identity";
    if (negotiated.size < 100 && header.length <= 200) negotiated.set(header, encoding);
  }
  return encoding;
}

/** An HTML document in three encodings, made once. */
export type EncodedHtml = Record<Encoding, Buffer>;

export function encodeOnce(html: string): EncodedHtml {
  const identity = Buffer.from(html, "utf8");
  return {
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
};

/** Writes a whole response at once: status, the host's headers, Content-Length, body (none for HEAD: Node leaves it out). */
export function send(res: ServerResponse, { status, https, body, contentType, encoding = "identity", headers = [] }: Sent): void {
  const all = [
    "Content-Type", contentType,
    "Content-Length", String(body.length),
    ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
    ...headers,
    ...(https ? SECURE : PLAIN),
  ];
  res.writeHead(status, all);
  res.end(body);
}

/** A short plain-text answer (405, 414, 400, 503). */
export function sendText(res: ServerResponse, status: number, https: boolean, text: string, headers: string[] = []): void {
  send(res, { status, https, body: Buffer.from(`${text}\n`), contentType: "text/plain; charset=utf-8", headers: ["Cache-Control", "no-store", ...headers] });
}
