import { useEffect, useRef, useState, type DetailedHTMLProps, type HTMLAttributes } from "react";
import type { CaptchaProvider } from "#server/platform/captcha/captcha";

/** Served by server/platform/captcha/routes.ts. */
const ALTCHA_CHALLENGE_URL = "/api/captcha/challenge";
/** The form field the server reads the captcha answer from, whatever the provider. */
const FIELD_NAME = "captcha";

type AltchaWidgetAttributes = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  challenge?: string;
  /** Name of the hidden input the widget adds to the form. */
  name?: string;
  auto?: "off" | "onfocus" | "onload" | "onsubmit";
};

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "altcha-widget": AltchaWidgetAttributes;
    }
  }
}

/**
 * The captcha inside a form: the form posts its answer as the field `captcha`.
 * ALTCHA (self-hosted proof of work) by default; reCAPTCHA v2 or Turnstile when configured,
 * whose hosts the CSP then allows (CAPTCHA_WIDGET_SOURCES in server/platform/captcha/captcha.ts).
 */
export function Captcha({ provider, siteKey }: { provider: CaptchaProvider; siteKey: string | null }) {
  return (
    <div role="group" aria-label="Spam check">
      {provider === "altcha" ? <AltchaWidget /> : siteKey ? <HostedWidget provider={provider} siteKey={siteKey} /> : null}
      <noscript>
        <p className="text-sm text-muted">The spam check needs JavaScript. Please turn it on to continue.</p>
      </noscript>
    </div>
  );
}

/**
 * Solves when the form is submitted ("onsubmit"): the widget holds the submit back, fetches a
 * fresh challenge, works it out in web workers, then submits again with the answer. Nothing
 * expires while the person types, and there is nothing to click.
 */
function AltchaWidget() {
  const widgetRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // A browser-only custom element: importing it here keeps it out of the server render.
    import("altcha").catch((error: unknown) => console.error("Could not load the spam check", error));
    const widget = widgetRef.current as AltchaElement | null;
    const form = widget?.closest("form");
    if (!widget || !form) return;
    const answer = () => widget.querySelector<HTMLInputElement>(`input[name="${FIELD_NAME}"]`)?.value ?? "";
    let sentAnswer = "";
    // On window, in the capture phase: this runs before the widget's own listener on the form.
    const beforeSubmit = (event: Event) => {
      if (event.target !== form || !widget.getState) return; // another form, or the widget is still loading
      const state = widget.getState();
      if (state === "verifying") {
        // A second click while solving: the widget submits by itself once it is done.
        event.preventDefault();
        event.stopPropagation();
      } else if (state === "verified" && answer() !== sentAnswer) {
        sentAnswer = answer();
      } else if (state !== "unverified") {
        // Answers are single-use: after a failed submit (say, the email is taken), or once the
        // challenge expired or failed, start over so the widget solves a fresh one.
        widget.reset?.();
      }
    };
    window.addEventListener("submit", beforeSubmit, true);
    return () => window.removeEventListener("submit", beforeSubmit, true);
  }, []);
  return <altcha-widget ref={widgetRef} challenge={ALTCHA_CHALLENGE_URL} name={FIELD_NAME} auto="onsubmit" />;
}

/** The methods appear once the altcha module has defined the element. */
type AltchaElement = HTMLElement & { getState?: () => string; reset?: () => void };

type HostedProvider = Exclude<CaptchaProvider, "altcha">;
type HostedApi = {
  render(container: HTMLElement, options: Record<string, unknown>): string | number;
  reset(widgetId: string | number): void;
  remove?(widgetId: string | number): void;
};

const HOSTED_SCRIPTS: Record<HostedProvider, { src: string; global: string }> = {
  recaptcha: { src: "https://www.google.com/recaptcha/api.js", global: "grecaptcha" },
  turnstile: { src: "https://challenges.cloudflare.com/turnstile/v0/api.js", global: "turnstile" },
};

/** reCAPTCHA/Turnstile rendered explicitly, so their token lands in our own `captcha` field. */
function HostedWidget({ provider, siteKey }: { provider: HostedProvider; siteKey: string }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [token, setToken] = useState("");
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // A fresh container per mount: reCAPTCHA refuses to render twice into one element.
    const container = host.appendChild(document.createElement("div"));
    let rendered: { api: HostedApi; widgetId: string | number } | null = null;
    let unmounted = false;
    loadHostedApi(provider).then(
      (api) => {
        if (unmounted) return;
        const options = { sitekey: siteKey, callback: setToken, "expired-callback": () => setToken("") };
        // Turnstile would add its own cf-turnstile-response field; ours is enough.
        rendered = { api, widgetId: api.render(container, provider === "turnstile" ? { ...options, "response-field": false } : options) };
      },
      (error: unknown) => console.error("Could not load the spam check", error),
    );
    const stopResetting = resetAfterSubmit(host, () => {
      setToken("");
      rendered?.api.reset(rendered.widgetId);
    });
    return () => {
      unmounted = true;
      stopResetting();
      if (rendered) rendered.api.remove?.(rendered.widgetId);
      container.remove();
    };
  }, [provider, siteKey]);
  return (
    <>
      <div ref={hostRef} />
      <input type="hidden" name={FIELD_NAME} value={token} />
    </>
  );
}

const hostedApiLoads = new Map<HostedProvider, Promise<HostedApi>>();

/** Adds the provider's script once per page; its onload callback hands over the API. */
function loadHostedApi(provider: HostedProvider): Promise<HostedApi> {
  const loading = hostedApiLoads.get(provider);
  if (loading) return loading;
  const { src, global } = HOSTED_SCRIPTS[provider];
  const onloadName = `sponsorgridCaptchaLoaded_${provider}`;
  const globals = window as unknown as Record<string, unknown>;
  const load = new Promise<HostedApi>((resolve, reject) => {
    globals[onloadName] = () => resolve(globals[global] as HostedApi);
    const script = document.createElement("script");
    script.src = `${src}?render=explicit&onload=${onloadName}`;
    script.async = true;
    script.onerror = () => {
      hostedApiLoads.delete(provider); // let a later mount try again
      script.remove();
      reject(new Error(`Could not load ${src}`));
    };
    document.head.appendChild(script);
  });
  hostedApiLoads.set(provider, load);
  return load;
}

/**
 * reCAPTCHA and Turnstile tokens are single-use, so once a submission has carried one (say
 * sign-up failed because the email is taken) the next submission needs a new one.
 */
function resetAfterSubmit(element: HTMLElement | null, reset: () => void): () => void {
  const form = element?.closest("form");
  if (!form) return () => {};
  const onSubmit = (event: SubmitEvent) => {
    if (event.defaultPrevented) return; // someone stopped this submit: the token was not sent
    setTimeout(reset, 0); // after the browser or React Router has read the form
  };
  form.addEventListener("submit", onSubmit);
  return () => form.removeEventListener("submit", onSubmit);
}
