import { randomUUID } from "node:crypto";
import {
  HttpMaxRetriesError,
  HttpRequestError,
  HttpResponseError,
  type Session,
} from "@shopify/shopify-api";
import prisma from "../db.server";
import { logger } from "../logger.server";
import {
  acquireTokenRefreshLease,
  releaseTokenRefreshLease,
} from "../models/TokenRefreshLease.server";
import type { AdminGraphql } from "./admin-api.server";
import { REAUTHORIZE_ADVICE } from "./offline-token-error";
import { offlineTokenApi, sessionStorage } from "../shopify.server";

/*
 * The shop's offline session as the background work needs it (decision 023): an expiring token
 * refreshed before it runs out, and a non-expiring one migrated to an expiring pair the first
 * time the background work needs it. A refresh token Shopify refuses cannot be mended here: the
 * merchant has to open the app again, whose token exchange gives the shop a new pair.
 * A refresh is made once per shop at a time, across processes (decision 042).
 */

export { OfflineTokenError, REAUTHORIZE_ADVICE } from "./offline-token-error";

/** Refreshed this long before it expires, as @shopify/shopify-app-remix does. */
export const REFRESH_WITHIN_MS = 5 * 60 * 1000;
/** Shopify's token endpoint gets this long to answer a refresh; then it counts as a passing failure. */
export const REFRESH_TIMEOUT_MS = 20_000;
/** A refresh lease outlives the slowest refresh; a process that died holding it blocks no longer. */
const LEASE_MS = REFRESH_TIMEOUT_MS + 10_000;
/** How often a caller waiting for another process's refresh reads the session again. */
const FOLLOW_POLL_MS = 100;

export type OfflineAccess =
  | { status: "ready"; session: Session }
  | { status: "missing" }
  /** Shopify refused the refresh token: only the merchant can give the app a new one. */
  | { status: "reauthorize"; detail: string; cause?: unknown }
  /** The refresh failed on the way (network, 5xx, 429, time-out): a later try may work. */
  | { status: "unavailable"; detail: string; cause?: unknown };

/** Shopify's token endpoint did not answer a refresh in time. */
export class TokenRefreshTimeout extends Error {
  constructor(shop: string) {
    super(
      `Shopify's token endpoint did not answer the refresh of ${shop}'s offline token within ${REFRESH_TIMEOUT_MS / 1000} s`,
    );
    this.name = "TokenRefreshTimeout";
  }
}

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
  if (
    error instanceof HttpRequestError ||
    error instanceof HttpMaxRetriesError ||
    error instanceof TokenRefreshTimeout
  )
    return true;
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

/** The shop's offline session as stored; a database failure throws. */
export function loadOfflineSession(shop: string): Promise<Session | undefined> {
  return sessionStorage.loadSession(offlineTokenApi.session.getOfflineId(shop));
}

/** An expiring token within 5 minutes of its expiry (or past it) that can be refreshed. */
export function needsRefresh(session: Session): boolean {
  return Boolean(session.expires && session.refreshToken) && session.isExpired(REFRESH_WITHIN_MS);
}

/** The shop's offline session, refreshed or migrated first when it needs to be. */
export async function ensureOfflineAccess(shop: string): Promise<OfflineAccess> {
  const session = await loadOfflineSession(shop);
  if (!session) return { status: "missing" };
  if (!session.expires) return { status: "ready", session: await migrateOfflineSession(session) };
  if (!needsRefresh(session)) return { status: "ready", session };
  return offlineTokenRefresher.refresh(shop, session);
}

/**
 * Refreshes a shop's offline token once per shop at a time (decision 042). Callers in one
 * process share the refresh under way; processes take turns through the shop's TokenRefreshLease.
 * The holder reads the session again first, so a caller that waited for another's refresh uses
 * the token it stored rather than spending the refresh token a second time. A caller that finds
 * the lease held goes on with the stored token while it is still valid, and otherwise waits
 * for the holder (at most one lease). One refresher per process; tests make more to play
 * several processes.
 */
export function createOfflineTokenRefresher() {
  const underWay = new Map<string, Promise<OfflineAccess>>();
  return {
    /** `seen`: the session the caller found due for a refresh. */
    refresh(shop: string, seen: Session): Promise<OfflineAccess> {
      const running = underWay.get(shop);
      if (running) return running;
      const started = refreshOnce(shop, seen).finally(() => underWay.delete(shop));
      underWay.set(shop, started);
      return started;
    },
  };
}

export const offlineTokenRefresher = createOfflineTokenRefresher();

/** Another caller stored a new token since `seen` was read, and it needs no refresh yet. */
function renewedSince(current: Session, seen: Session): boolean {
  return current.accessToken !== seen.accessToken && !current.isExpired(REFRESH_WITHIN_MS);
}

async function refreshOnce(shop: string, seen: Session): Promise<OfflineAccess> {
  const owner = randomUUID();
  const waitUntil = Date.now() + LEASE_MS;
  for (;;) {
    if (await acquireTokenRefreshLease(prisma, shop, owner, new Date(), LEASE_MS)) {
      try {
        return await refreshHoldingLease(shop, seen);
      } finally {
        await releaseTokenRefreshLease(prisma, shop, owner).catch((error: unknown) =>
          log.error(
            { shop, err: error },
            `Failed to release the token refresh lease of ${shop}; it expires on its own`,
          ),
        );
      }
    }
    const current = await loadOfflineSession(shop);
    if (!current) return { status: "missing" };
    if (renewedSince(current, seen) || !current.isExpired())
      return { status: "ready", session: current };
    if (Date.now() >= waitUntil) {
      return {
        status: "unavailable",
        detail: `the offline access token of ${shop} has run out and another process has been refreshing it for ${LEASE_MS / 1000} s`,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
  }
}

async function refreshHoldingLease(shop: string, seen: Session): Promise<OfflineAccess> {
  const session = await loadOfflineSession(shop);
  if (!session) return { status: "missing" };
  const refreshToken = session.refreshToken;
  if (renewedSince(session, seen) || !refreshToken || !needsRefresh(session))
    return { status: "ready", session };
  let refreshed: Session;
  try {
    ({ session: refreshed } = await withRefreshTimeout(
      shop,
      offlineTokenApi.auth.refreshToken({ shop, refreshToken }),
    ));
  } catch (error) {
    const detail = `the offline access token of ${shop} could not be refreshed: ${describeFailure(error)}`;
    if (isPassing(error)) return { status: "unavailable", detail, cause: error };
    if (error instanceof HttpResponseError)
      return { status: "reauthorize", detail: `${detail}; ${REAUTHORIZE_ADVICE}`, cause: error };
    throw error;
  }
  try {
    await sessionStorage.storeSession(refreshed);
  } catch (error) {
    // Shopify keeps the old refresh token usable until the new one is used: the next caller
    // refreshes again from the stored session, and this one works with the pair it got.
    log.error(
      { shop, err: error },
      `Failed to store the refreshed offline token of ${shop}: the next use refreshes again`,
    );
  }
  return { status: "ready", session: refreshed };
}

function withRefreshTimeout<T>(shop: string, refreshing: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TokenRefreshTimeout(shop)), REFRESH_TIMEOUT_MS);
  });
  return Promise.race([refreshing, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The shop's Admin GraphQL API with this session's token as it is, answering as `admin.graphql`
 * does (a Response of the JSON; HTTP failures thrown). Unlike `unauthenticated.admin`, it never
 * refreshes the token itself: refreshes go through ensureOfflineAccess, once per shop.
 */
export function offlineAdminGraphql(session: Session): AdminGraphql {
  return async (query, options) => {
    const client = new offlineTokenApi.clients.Graphql({ session });
    const answer = await client.request(query, {
      ...(options?.variables ? { variables: options.variables } : {}),
      ...(options?.signal ? { signal: options.signal } : {}),
      retries: 0,
    });
    return new Response(JSON.stringify(answer));
  };
}

/**
 * After Shopify answered 401 to a token the app thought alive (the token ran out during an
 * action, or Shopify's clock is ahead): the stored session is marked expired, so the next use
 * refreshes it. A session another run has refreshed since is left alone.
 */
export async function markOfflineTokenExpired(shop: string, accessToken: string): Promise<void> {
  const session = await loadOfflineSession(shop);
  if (!session?.refreshToken || session.accessToken !== accessToken) return;
  session.expires = new Date();
  await sessionStorage.storeSession(session);
}
