import { createCookieSessionStorage, redirect } from "react-router";
import { toastSchema, type Toast } from "./toast";

// One cookie storage per signing secret, which is one per process: pure (built from the secret alone) and bounded.
const storages = new Map<string, ReturnType<typeof createToastStorage>>();

function createToastStorage(secret: string) {
  return createCookieSessionStorage({
    cookie: { name: "sg_toast", secrets: [secret], httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 },
  });
}

function storageFor(secret: string) {
  let storage = storages.get(secret);
  if (!storage) storages.set(secret, (storage = createToastStorage(secret)));
  return storage;
}

function isHttps(request: Request) {
  return new URL(request.url).protocol === "https:";
}

/** A Set-Cookie value that shows `toast` on the next page the browser renders. */
export async function toastCookie(request: Request, secret: string, toast: Toast): Promise<string> {
  const storage = storageFor(secret);
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.flash("toast", toast);
  return storage.commitSession(session, { secure: isHttps(request) });
}

/** Redirect that carries a toast across to the destination. */
export async function redirectWithToast(request: Request, secret: string, to: string, toast: Toast) {
  return redirect(to, { headers: { "Set-Cookie": await toastCookie(request, secret, toast) } });
}

/** Reads (and consumes) the pending toast, if any. */
export async function takeToast(request: Request, secret: string): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("sg_toast=")) return { toast: null, setCookie: null };
  const storage = storageFor(secret);
  const session = await storage.getSession(cookie);
  const parsed = toastSchema.safeParse(session.get("toast"));
  const setCookie = await storage.commitSession(session, { secure: isHttps(request) });
  return { toast: parsed.success ? parsed.data : null, setCookie };
}
