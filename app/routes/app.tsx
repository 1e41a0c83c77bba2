import { json, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import polarisGerman from "@shopify/polaris/locales/de.json";
import polarisEnglish from "@shopify/polaris/locales/en.json";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { getEnv } from "../env.server";
import { createTranslator, resolveLocale } from "../i18n/translate";
import { localAppBridgeUrl } from "../lib/local-admin";
import { authenticate } from "../shopify.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

const LOCALE_COOKIE = "svc_admin_locale";

/**
 * Shopify opens the app with the user's language in `locale`; Remix's own navigations inside the
 * app do not carry it, so it is kept in a cookie as well.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  const fromQuery = new URL(request.url).searchParams.get("locale");
  const fromCookie = /(?:^|;\s*)svc_admin_locale=([\w-]+)/.exec(
    request.headers.get("Cookie") ?? "",
  )?.[1];
  const locale = resolveLocale(fromQuery ?? fromCookie);
  const headers = fromQuery
    ? {
        "Set-Cookie": `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=None; Secure; HttpOnly`,
      }
    : undefined;
  const env = getEnv();
  // Against the local store, App Bridge's stand-in comes from the store (decision 030).
  const appBridgeUrl = localAppBridgeUrl(env.SHOPIFY_ADMIN_ORIGIN) ?? null;
  return json({ apiKey: env.SHOPIFY_API_KEY, locale, appBridgeUrl }, { headers });
};

export default function App() {
  const { apiKey, locale, appBridgeUrl } = useLoaderData<typeof loader>() as {
    apiKey: string;
    locale: "en" | "de";
    appBridgeUrl: string | null;
  };
  const t = createTranslator(locale);
  return (
    <AppProvider
      isEmbeddedApp
      apiKey={apiKey}
      {...(appBridgeUrl ? { __APP_BRIDGE_URL: appBridgeUrl } : {})}
      i18n={locale === "de" ? polarisGerman : polarisEnglish}
    >
      <NavMenu>
        <Link to="/app" rel="home">
          {t("common.nav.home")}
        </Link>
        <Link to="/app/connection">{t("common.nav.connection")}</Link>
        <Link to="/app/items">{t("common.nav.items")}</Link>
        <Link to="/app/events">{t("common.nav.events")}</Link>
        <Link to="/app/settings">{t("common.nav.settings")}</Link>
      </NavMenu>
      <Outlet />
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses, so that their headers are included.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
