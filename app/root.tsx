import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ErrorPage } from "./components/ErrorPage";
import { AppFooter, SiteFooter } from "./components/SiteFooter";
import { SiteHeader } from "./components/SiteHeader";
import { Toasts } from "./components/Toasts";
import { footerKind } from "./lib/footer-kind";
import { useNonce } from "./lib/nonce";
import type { SiteInfo } from "#page-kit/site";
import { takeToast } from "#server/platform/http/toast-cookie";
import { getSessionAccount } from "#server/domains/auth/session";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { config, sessionSecret } = context;
  const site: SiteInfo = {
    appName: config.APP_NAME,
    publicOrigin: config.PUBLIC_ORIGIN,
    supportEmail: config.SUPPORT_EMAIL,
    companyName: config.COMPANY_NAME,
    year: new Date().getFullYear(),
  };
  const [{ toast, setCookie }, signedIn] = await Promise.all([takeToast(request, sessionSecret), getSessionAccount(request, context)]);
  const account = signedIn
    ? { name: signedIn.user.name, email: signedIn.user.email, unreadNotifications: signedIn.unreadNotifications, pages: signedIn.pages, photoId: signedIn.photoId }
    : null;
  return data({ site, toast, account }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

/** Content pages set `handle = { hydrate: false }` and ship no JavaScript at all. */
function useShipsJavaScript(): boolean {
  return !useMatches().some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}

/**
 * A page that wears someone else's look (checkout and its result pages wear
 * the creator's) sets `handle = { siteChrome: false }`: no marketing header
 * or footer around it.
 */
function useSiteChrome(): boolean {
  return !useMatches().some((match) => (match.handle as { siteChrome?: boolean } | undefined)?.siteChrome === false);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const shipsJavaScript = useShipsJavaScript();
  const siteChrome = useSiteChrome();
  const footer = footerKind(useLocation().pathname);
  const site = rootData?.site;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" media="(prefers-color-scheme: light)" content="#603f8b" />
        <meta name="theme-color" media="(prefers-color-scheme: dark)" content="#15111c" />
        <Meta />
        <Links />
      </head>
      <body className="font-sans antialiased">
        <a
          href="#main"
          className="sr-only rounded bg-primary px-4 py-2 text-white focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50"
        >
          Skip to content
        </a>
        {siteChrome ? <SiteHeader appName={site?.appName ?? "Sponsorgrid"} account={rootData?.account ?? null} /> : null}
        <main id="main" className="flex-1">
          {children}
        </main>
        {site && siteChrome ? footer === "marketing" ? <SiteFooter site={site} /> : <AppFooter site={site} /> : null}
        <Toasts toast={rootData?.toast ?? null} />
        {shipsJavaScript ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <ErrorPage status={status} />;
}
