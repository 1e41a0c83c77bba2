import { getEnv } from "../env.server";
import type { Logger } from "../logger.server";
import type { AdminGraphql } from "../services/admin-api.server";
import {
  loadOfflineSession,
  needsRefresh,
  offlineAdminGraphql,
  offlineTokenRefresher,
  type OfflineAccess,
} from "../services/offline-session.server";

/*
 * The shop's Admin API for a storefront request (decision 042), opened only where the request
 * needs it (Shopify's variant check, the offer hint's write) and never at the cost of the answer.
 * A token that is still valid is used while its refresh runs in the background; one that has run
 * out waits for its refresh at most the storefront time-out. A missing session, a failed or slow
 * refresh and a failing database all give "no Admin API", and the caller answers without it. A
 * failed refresh is logged with its cause and not tried again for a while, as every product page
 * view would otherwise ask Shopify's token endpoint again.
 */

/** Opens the shop's Admin API once per request; undefined when there is none to be had now. */
export type OpenShopAdmin = () => Promise<AdminGraphql | undefined>;

/** After a failed refresh, the storefront leaves the token endpoint alone this long. */
export const FAILED_REFRESH_PAUSE_MS = 30_000;

/** Per shop: when the storefront may try a refresh again. Only shops Shopify signed for. */
const pausedUntil = new Map<string, number>();
/** Per shop: the storefront's refresh under way, logged once whichever request started it. */
const refreshing = new Map<string, Promise<OfflineAccess | undefined>>();

export function shopAdminOpener(shop: string, log: Logger): OpenShopAdmin {
  let opened: Promise<AdminGraphql | undefined> | undefined;
  return () => (opened ??= openShopAdmin(shop, log));
}

async function openShopAdmin(shop: string, log: Logger): Promise<AdminGraphql | undefined> {
  let session;
  try {
    session = await loadOfflineSession(shop);
  } catch (error) {
    log.error(
      { err: error },
      `Failed to read the offline session of ${shop}; answering without the Admin API`,
    );
    return undefined;
  }
  if (!session) return undefined;
  if (!needsRefresh(session)) return offlineAdminGraphql(session);

  const stillValid = !session.isExpired();
  const until = pausedUntil.get(shop);
  if (until !== undefined && until <= Date.now()) pausedUntil.delete(shop);
  const paused = until !== undefined && until > Date.now();
  if (paused) {
    if (stillValid) return offlineAdminGraphql(session);
    log.debug(`The offline token of ${shop} has run out and its refresh failed lately`);
    return undefined;
  }
  const refresh = refreshOf(shop, session, log);
  if (stillValid) return offlineAdminGraphql(session);

  const timeoutMs = getEnv().SVC_STOREFRONT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  const access = await Promise.race([refresh, late]).finally(() => clearTimeout(timer));
  if (access === "late") {
    log.warn(
      `The refresh of ${shop}'s offline token did not finish within ${timeoutMs} ms; answering without the Admin API while it goes on`,
    );
    return undefined;
  }
  return access?.status === "ready" ? offlineAdminGraphql(access.session) : undefined;
}

function refreshOf(
  shop: string,
  session: Parameters<typeof offlineTokenRefresher.refresh>[1],
  log: Logger,
): Promise<OfflineAccess | undefined> {
  const running = refreshing.get(shop);
  if (running) return running;
  const pause = () => pausedUntil.set(shop, Date.now() + FAILED_REFRESH_PAUSE_MS);
  const started = offlineTokenRefresher
    .refresh(shop, session)
    .then(
      (access) => {
        if (access.status === "ready") {
          pausedUntil.delete(shop);
        } else if (access.status !== "missing") {
          pause();
          log.warn(
            { err: access.cause ?? new Error(access.detail), refreshStatus: access.status },
            `Failed to refresh the offline token of ${shop}: ${access.detail}`,
          );
        }
        return access;
      },
      (error: unknown) => {
        pause();
        log.error({ err: error }, `Failed to refresh the offline token of ${shop}`);
        return undefined;
      },
    )
    .finally(() => refreshing.delete(shop));
  refreshing.set(shop, started);
  return started;
}

/** Forgets every pause after a failed refresh (tests). */
export function forgetFailedRefreshes() {
  pausedUntil.clear();
}
