import {
  HttpMaxRetriesError,
  HttpRequestError,
  HttpResponseError,
  type Session,
} from "@shopify/shopify-api";
import { logger } from "../logger.server";
import { REAUTHORIZE_ADVICE } from "./offline-token-error";
import { offlineTokenApi, sessionStorage } from "../shopify.server";

/*
 * The shop's offline session as the background work needs it (decision 023): an expiring token
 * refreshed before it runs out, and a non-expiring one migrated to an expiring pair the first
 * time the background work needs it. A refresh token Shopify refuses cannot be mended here: the
 * merchant has to open the app again, whose token exchange gives the shop a new pair.
 */

export { OfflineTokenError, REAUTHORIZE_ADVICE } from "./offline-token-error";

/** Refreshed this long before it expires, as @shopify/shopify-app-remix does. */
export const REFRESH_WITHIN_MS = 5 * 60 * 1000;

export type OfflineAccess =
  | { status: "ready"; session: Session }
  | { status: "missing" }
  /** Shopify refused the refresh token: only the merchant can give the app a new one. */
  | { status: "reauthorize"; detail: string }
  /** The refresh failed on the way (network, 5xx): a later try may work. */
  | { status: "unavailable"; detail: string };

const log = logger.child({ component: "offline-session" });

function describeFailure(error: unknown): string {
  if (error instanceof HttpResponseError) {
    const body = error.response.body as
      { error?: unknown; error_description?: unknown } | undefined;
    const reason = [body?.error, body?.error_description].filter(Boolean).join(": ");
    return `Shopify answered ${error.response.code}${reason ? ` (${reason})` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failure a later try may not meet: the network, a 5xx, a throttle. */
function isPassing(error: unknown): boolean {
  if (error instanceof HttpRequestError || error instanceof HttpMaxRetriesError) return true;
  return (
    error instanceof HttpResponseError &&
    (error.response.code >= 500 || error.response.code === 429 || error.response.code === 408)
  );
}

/**
 * Trades the session's non-expiring token for an expiring pair. A failure keeps the old session
 * (its token works until Shopify retires it) and is tried again next time; a pair Shopify issued
 * but that could not be stored is used for this run, and Shopify answers the same pair when the
 * old token is exchanged again (for 7 days), so nothing is lost either way.
 */
export async function migrateOfflineSession(session: Session): Promise<Session> {
  const fields = { shop: session.shop };
  let migrated: Session;
  try {
    ({ session: migrated } = await offlineTokenApi.auth.migrateToExpiringToken({
      shop: session.shop,
      nonExpiringOfflineAccessToken: session.accessToken ?? "",
    }));
  } catch (error) {
    log.warn(
      { ...fields, reason: describeFailure(error) },
      `Failed to migrate the offline token of ${session.shop} to an expiring one: kept the old one`,
    );
    return session;
  }
  try {
    await sessionStorage.storeSession(migrated);
    log.info(fields, `Migrated the offline token of ${session.shop} to an expiring one`);
  } catch (error) {
    log.error(
      { ...fields, err: error },
      `Failed to store the migrated offline token of ${session.shop}: the next run exchanges the old one again`,
    );
  }
  return migrated;
}

/** The shop's offline session, refreshed or migrated first when it needs to be. */
export async function ensureOfflineAccess(
  shop: string,
  options: { forceRefresh?: boolean } = {},
): Promise<OfflineAccess> {
  const session = await sessionStorage.loadSession(offlineTokenApi.session.getOfflineId(shop));
  if (!session) return { status: "missing" };
  if (!session.expires) return { status: "ready", session: await migrateOfflineSession(session) };
  const refreshToken = session.refreshToken;
  if (!refreshToken || !(options.forceRefresh || session.isExpired(REFRESH_WITHIN_MS)))
    return { status: "ready", session };
  let refreshed: Session;
  try {
    ({ session: refreshed } = await offlineTokenApi.auth.refreshToken({ shop, refreshToken }));
  } catch (error) {
    const detail = `the offline access token of ${shop} could not be refreshed: ${describeFailure(error)}`;
    if (isPassing(error)) return { status: "unavailable", detail };
    if (error instanceof HttpResponseError)
      return { status: "reauthorize", detail: `${detail}; ${REAUTHORIZE_ADVICE}` };
    throw error;
  }
  await sessionStorage.storeSession(refreshed);
  return { status: "ready", session: refreshed };
}

/**
 * After Shopify answered 401 to a token the app thought alive (the token ran out during an
 * action, or Shopify's clock is ahead): the stored session is marked expired, so the next use
 * refreshes it. A session another run has refreshed since is left alone.
 */
export async function markOfflineTokenExpired(shop: string, accessToken: string): Promise<void> {
  const session = await sessionStorage.loadSession(offlineTokenApi.session.getOfflineId(shop));
  if (!session?.refreshToken || session.accessToken !== accessToken) return;
  session.expires = new Date();
  await sessionStorage.storeSession(session);
}
