import crypto from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";
import { CAPTCHA_WIDGET_SOURCES, type CaptchaProvider } from "#server/platform/captcha/captcha";

/** A fresh nonce per response, read by helmet's CSP and by the React render. */
export const assignNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
};

/**
 * Security headers on every response. Scripts need a nonce (no 'unsafe-inline');
 * HSTS is sent only to requests that arrived over https. A hosted captcha
 * (reCAPTCHA, Turnstile) adds the hosts its widget loads from, and only then.
 * `imageOrigins` are further origins pages show images from (the bio host's
 * share images: http://bio.localhost:PORT in development, which `https:` misses).
 */
export function securityHeaders({
  captchaProvider = "altcha",
  imageOrigins = [],
  formTargetOrigins = [],
  ownPolicyPaths = [],
}: {
  captchaProvider?: CaptchaProvider;
  imageOrigins?: string[];
  /** Where a form's redirect may lead: the payment provider's hosted checkout. */
  formTargetOrigins?: string[];
  /**
   * Paths whose answer brings its own, stricter CSP and framing rule: the
   * bio editor's preview, a no-script page the editor frames. The app's
   * policy (which forbids framing) is taken off them here; their route sets its own.
   */
  ownPolicyPaths?: RegExp[];
} = {}): RequestHandler[] {
  const widget = CAPTCHA_WIDGET_SOURCES[captchaProvider];
  const csp = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`,
          ...widget.scripts,
        ],
        ...(widget.frames.length > 0 ? { "frame-src": ["'self'", ...widget.frames] } : {}),
        "style-src": ["'self'", "'unsafe-inline'"],
        // blob: shows a photo chosen for upload (an object URL) before it is sent.
        "img-src": ["'self'", "data:", "blob:", "https:", ...new Set(imageOrigins.map((origin) => new URL(origin).origin))],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        // The ALTCHA widget runs its proof of work in web workers it creates from blob: URLs.
        "worker-src": ["'self'", "blob:"],
        "form-action": ["'self'", ...formTargetOrigins],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
  });
  const hsts: RequestHandler = (req, res, next) => {
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
  const ownPolicy: RequestHandler = (req, res, next) => {
    if (ownPolicyPaths.some((path) => path.test(req.path))) {
      res.removeHeader("Content-Security-Policy");
      res.removeHeader("X-Frame-Options");
    }
    next();
  };
  return ownPolicyPaths.length > 0 ? [assignNonce, csp, ownPolicy, hsts] : [assignNonce, csp, hsts];
}
