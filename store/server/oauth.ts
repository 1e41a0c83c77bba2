import { createHmac, randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { StoreActions, StoreShop } from "../model";
import type { AppConfig } from "./app-config";
import { verifySessionToken } from "./session-token";

/*
 * Shopify's OAuth endpoints, per shop: the authorization code grant (authorize redirects to the
 * app's callback with a signed code; access_token exchanges it) and token exchange (an embedded
 * app trades an App Bridge session token for an offline or online access token), answering in
 * the shapes `@shopify/shopify-api`'s `auth.callback` and `auth.tokenExchange` read.
 *
 * Offline tokens expire when the app asks with `expiring=1` (decision 023): an hour, with a
 * refresh token of 90 days that `grant_type=refresh_token` trades for a new pair. A used refresh
 * token can be tried again until the app uses its replacement (at most 30 days), and a
 * non-expiring token migrated by token exchange can be exchanged again for the same pair for 7
 * days, as Shopify lets apps recover a lost answer.
 */

export const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
export const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

export const REFRESH_TOKEN_GRANT = "refresh_token";

const CODE_LIFETIME_MS = 60_000;
/** Shopify's online tokens last a day, less a second. */
const ONLINE_TOKEN_LIFETIME_SECONDS = 86_399;
/** Expiring offline tokens last an hour; their refresh tokens 90 days. */
export const EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS = 3_600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 90 * 86_400;
/** How long a used refresh token may be tried again while its replacement is unused. */
const REFRESH_RETRY_WINDOW_MS = 30 * 86_400_000;
/** How long a migrated non-expiring token can be exchanged again for the same pair. */
const MIGRATION_RETRY_WINDOW_MS = 7 * 86_400_000;

/** The staff member every shop's admin is used by: its account owner. */
export const SHOP_OWNER_USER_ID = "70043922137";

interface AuthorizationCode {
  shop: string;
  online: boolean;
  expiresAt: number;
}

interface OnlineToken {
  shop: string;
  /** The installation it belongs to: uninstalling revokes it with the offline token. */
  offlineAccessToken: string;
  expiresAt: number;
}

/** An expiring offline access token, kept until it expires: a refresh does not revoke it. */
interface ExpiringAccessToken {
  shop: string;
  /** The installation it belongs to: an uninstall revokes every token of it. */
  installedAt: string;
  expiresAt: number;
}

interface RefreshGrant {
  shop: string;
  installedAt: string;
  /** The access token issued with it. */
  accessToken: string;
  expiresAt: number;
  /** Null until the app first trades it in. */
  firstUsedAt: number | null;
  /** The refresh token that issued it, retired when this one is first used. */
  predecessor: string | null;
}

/** What the token endpoint does to a shop's next refresh grants (tests: a slow or failing Shopify). */
export interface RefreshFault {
  /** Answered instead of a pair (429 with Retry-After, 5xx); null answers normally after the delay. */
  status: number | null;
  delayMs: number;
  /** Refresh grants still to meet the fault. */
  remaining: number;
}

interface Migration {
  shop: string;
  installedAt: string;
  at: number;
  refreshToken: string;
}

export type AccessTokenKind = "offline" | "online";

export interface NonExpiringOfflineAccessResponse {
  access_token: string;
  scope: string;
}

export interface ExpiringOfflineAccessResponse extends NonExpiringOfflineAccessResponse {
  expires_in: number;
  refresh_token: string;
  refresh_token_expires_in: number;
}

export type GrantResult<Answer> = Answer | { status: "invalid"; reason: string };

export interface OnlineAccessResponse {
  access_token: string;
  scope: string;
  expires_in: number;
  associated_user_scope: string;
  associated_user: {
    id: number;
    first_name: string;
    last_name: string;
    email: string;
    email_verified: boolean;
    account_owner: boolean;
    locale: string;
    collaborator: boolean;
  };
}

/** Codes handed out, online tokens issued and offline token exchanges, per store process. */
export class AccessGrants {
  readonly #codes = new Map<string, AuthorizationCode>();
  readonly #onlineTokens = new Map<string, OnlineToken>();
  readonly #offlineExchanges = new Map<string, number>();
  readonly #expiringTokens = new Map<string, ExpiringAccessToken>();
  readonly #refreshTokens = new Map<string, RefreshGrant>();
  /** Migrations by the non-expiring token they replaced. */
  readonly #migrations = new Map<string, Migration>();
  readonly #refreshRequests = new Map<string, number>();
  readonly #refreshFaults = new Map<string, RefreshFault>();

  constructor(
    readonly state: StoreActions,
    readonly now: () => Date,
  ) {}

  issueCode(shop: string, online: boolean): string {
    const code = randomBytes(16).toString("hex");
    this.#codes.set(code, { shop, online, expiresAt: this.now().getTime() + CODE_LIFETIME_MS });
    return code;
  }

  /** A code works once, for its shop, within a minute. */
  redeemCode(
    shop: string,
    code: string,
  ): { status: "valid"; online: boolean } | { status: "invalid"; reason: string } {
    const grant = this.#codes.get(code);
    if (!grant || grant.shop !== shop)
      return {
        status: "invalid",
        reason: "The authorization code was not found or was already used",
      };
    this.#codes.delete(code);
    if (grant.expiresAt < this.now().getTime())
      return { status: "invalid", reason: "The authorization code has expired" };
    return { status: "valid", online: grant.online };
  }

  issueOnlineToken(shop: StoreShop, userId: string): OnlineAccessResponse {
    const installation = shop.installation;
    if (!installation)
      throw new Error(`Cannot issue an online token for ${shop.domain}: not installed`);
    const token = `shpua_${randomBytes(16).toString("hex")}`;
    this.#onlineTokens.set(token, {
      shop: shop.domain,
      offlineAccessToken: installation.offlineAccessToken,
      expiresAt: this.now().getTime() + ONLINE_TOKEN_LIFETIME_SECONDS * 1000,
    });
    const scope = installation.scopes.join(",");
    return {
      access_token: token,
      scope,
      expires_in: ONLINE_TOKEN_LIFETIME_SECONDS,
      associated_user_scope: scope,
      associated_user: {
        id: Number(userId),
        first_name: "Store",
        last_name: "Owner",
        email: shop.email,
        email_verified: true,
        account_owner: userId === SHOP_OWNER_USER_ID,
        locale: "en",
        collaborator: false,
      },
    };
  }

  recordOfflineExchange(shop: string): void {
    this.#offlineExchanges.set(shop, this.offlineExchanges(shop) + 1);
  }

  /** How many offline tokens token exchange has issued for the shop. */
  offlineExchanges(shop: string): number {
    return this.#offlineExchanges.get(shop) ?? 0;
  }

  /** Whether `token` opens the Admin API of `shop`, and as which kind of token. */
  accessTokenKind(shop: string, token: string): AccessTokenKind | null {
    const current = this.state.shop(shop)?.installation;
    if (current && token !== "") {
      if (current.offlineAccessToken === token && current.offlineAccessTokenExpiresAt === null)
        return "offline";
      const expiring = this.#expiringTokens.get(token);
      if (
        expiring?.shop === shop &&
        expiring.installedAt === current.installedAt &&
        expiring.expiresAt > this.now().getTime()
      )
        return "offline";
    }
    const online = this.#onlineTokens.get(token);
    if (!online || online.shop !== shop || online.expiresAt <= this.now().getTime()) return null;
    const installation = this.state.shop(shop)?.installation;
    return installation?.offlineAccessToken === online.offlineAccessToken ? "online" : null;
  }

  /**
   * The non-expiring offline token of an app that does not ask for expiring ones: the current
   * token while it is non-expiring, else a new one that replaces the expiring pair.
   */
  nonExpiringOfflineToken(shop: StoreShop): NonExpiringOfflineAccessResponse {
    const installation = this.#installationOf(shop.domain);
    if (installation.offlineAccessTokenExpiresAt !== null) {
      this.#forgetPairsOf(shop.domain);
      this.state.replaceOfflineToken(shop.domain, `shpat_${randomBytes(16).toString("hex")}`, null);
    }
    const current = this.#installationOf(shop.domain);
    return { access_token: current.offlineAccessToken, scope: current.scopes.join(",") };
  }

  /**
   * A new expiring pair from an authorization code or a session token: it replaces the pair
   * before (its refresh token no longer works) and any non-expiring token.
   */
  acquireExpiringOfflineToken(shop: StoreShop): ExpiringOfflineAccessResponse {
    this.#forgetPairsOf(shop.domain);
    return this.#issueExpiring(shop.domain, null);
  }

  /** `grant_type=refresh_token`: a new pair for a live refresh token of the installation. */
  refresh(shop: StoreShop, refreshToken: string): GrantResult<ExpiringOfflineAccessResponse> {
    const now = this.now().getTime();
    const grant = this.#refreshTokens.get(refreshToken);
    const installation = this.state.shop(shop.domain)?.installation;
    if (!grant || grant.shop !== shop.domain || grant.installedAt !== installation?.installedAt)
      return { status: "invalid", reason: "The refresh token is invalid or has been revoked." };
    if (grant.expiresAt <= now)
      return { status: "invalid", reason: "The refresh token has expired." };
    // A used token may be tried again (a lost answer) until the app uses a replacement.
    if (grant.firstUsedAt === null) grant.firstUsedAt = now;
    else if (now > grant.firstUsedAt + REFRESH_RETRY_WINDOW_MS)
      return { status: "invalid", reason: "The refresh token has already been used." };
    // The app uses this token: the one that issued it is retired.
    if (grant.predecessor !== null) this.#refreshTokens.delete(grant.predecessor);
    grant.predecessor = null;
    this.#forgetMigrationsOf(shop.domain);
    return this.#issueExpiring(shop.domain, refreshToken);
  }

  /**
   * Token exchange of a non-expiring offline token for an expiring pair: the old token stops
   * opening the Admin API. Exchanging the same old token again within 7 days, before the pair
   * was refreshed or replaced, answers the same pair with its access token's life renewed.
   */
  migrate(shop: StoreShop, subjectToken: string): GrantResult<ExpiringOfflineAccessResponse> {
    const now = this.now().getTime();
    const installation = this.#installationOf(shop.domain);
    if (
      installation.offlineAccessToken === subjectToken &&
      installation.offlineAccessTokenExpiresAt === null
    ) {
      const issued = this.acquireExpiringOfflineToken(shop);
      this.#migrations.set(subjectToken, {
        shop: shop.domain,
        installedAt: installation.installedAt,
        at: now,
        refreshToken: issued.refresh_token,
      });
      return issued;
    }
    const migration = this.#migrations.get(subjectToken);
    const grant = migration && this.#refreshTokens.get(migration.refreshToken);
    if (
      !migration ||
      !grant ||
      migration.shop !== shop.domain ||
      migration.installedAt !== installation.installedAt ||
      now > migration.at + MIGRATION_RETRY_WINDOW_MS ||
      grant.firstUsedAt !== null ||
      installation.offlineAccessToken !== grant.accessToken
    )
      return {
        status: "invalid",
        reason: "The offline access token is invalid, or was already exchanged.",
      };
    const expiresAt = now + EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS * 1000;
    this.#expiringTokens.set(grant.accessToken, {
      shop: shop.domain,
      installedAt: installation.installedAt,
      expiresAt,
    });
    this.state.replaceOfflineToken(
      shop.domain,
      grant.accessToken,
      new Date(expiresAt).toISOString(),
    );
    return {
      access_token: grant.accessToken,
      scope: installation.scopes.join(","),
      expires_in: EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS,
      refresh_token: migration.refreshToken,
      refresh_token_expires_in: Math.floor((grant.expiresAt - now) / 1000),
    };
  }

  #installationOf(domain: string) {
    const installation = this.state.shop(domain)?.installation;
    if (!installation)
      throw new Error(`Cannot issue an offline token for ${domain}: not installed`);
    return installation;
  }

  #issueExpiring(domain: string, predecessor: string | null): ExpiringOfflineAccessResponse {
    const installation = this.#installationOf(domain);
    const now = this.now().getTime();
    const accessToken = `shpat_${randomBytes(16).toString("hex")}`;
    const refreshToken = `shprt_${randomBytes(16).toString("hex")}`;
    const expiresAt = now + EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS * 1000;
    const { installedAt } = installation;
    this.#expiringTokens.set(accessToken, { shop: domain, installedAt, expiresAt });
    this.#refreshTokens.set(refreshToken, {
      shop: domain,
      installedAt,
      accessToken,
      expiresAt: now + REFRESH_TOKEN_LIFETIME_SECONDS * 1000,
      firstUsedAt: null,
      predecessor,
    });
    this.state.replaceOfflineToken(domain, accessToken, new Date(expiresAt).toISOString());
    return {
      access_token: accessToken,
      scope: installation.scopes.join(","),
      expires_in: EXPIRING_OFFLINE_TOKEN_LIFETIME_SECONDS,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_TOKEN_LIFETIME_SECONDS,
    };
  }

  /** A new acquisition replaces the shop's pairs: their refresh tokens and recoveries end. */
  #forgetPairsOf(domain: string): void {
    for (const [token, grant] of this.#refreshTokens)
      if (grant.shop === domain) this.#refreshTokens.delete(token);
    this.#forgetMigrationsOf(domain);
  }

  #forgetMigrationsOf(domain: string): void {
    for (const [token, migration] of this.#migrations)
      if (migration.shop === domain) this.#migrations.delete(token);
  }

  /** Counts a refresh grant request for the shop, whatever it is answered. */
  countRefreshRequest(shop: string): void {
    this.#refreshRequests.set(shop, this.refreshRequests(shop) + 1);
  }

  /** How many refresh grant requests the shop's app has made. */
  refreshRequests(shop: string): number {
    return this.#refreshRequests.get(shop) ?? 0;
  }

  /** Makes the shop's next refresh grants slow or failing; null ends the fault. */
  setRefreshFault(shop: string, fault: RefreshFault | null): void {
    if (fault === null || fault.remaining <= 0) this.#refreshFaults.delete(shop);
    else this.#refreshFaults.set(shop, { ...fault });
  }

  refreshFault(shop: string): RefreshFault | null {
    return this.#refreshFaults.get(shop) ?? null;
  }

  /** The fault this refresh grant meets, if any; each grant uses one up. */
  takeRefreshFault(shop: string): RefreshFault | null {
    const fault = this.#refreshFaults.get(shop);
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#refreshFaults.delete(shop);
    return { ...fault };
  }

  reset(): void {
    this.#refreshRequests.clear();
    this.#refreshFaults.clear();
    this.#codes.clear();
    this.#onlineTokens.clear();
    this.#offlineExchanges.clear();
    this.#expiringTokens.clear();
    this.#refreshTokens.clear();
    this.#migrations.clear();
  }
}

/**
 * The HMAC of an OAuth redirect's query, as Shopify signs it and `@shopify/shopify-api`'s
 * `validateHmac` checks it: every parameter but `hmac`, keys sorted, form-encoded with %20 for
 * spaces, HMAC-SHA256 hex keyed with the app's secret.
 */
export function oauthQueryHmac(query: URLSearchParams, apiSecret: string): string {
  const values = new Map<string, string>();
  for (const [key, value] of query) {
    if (key === "hmac" || key === "signature") continue;
    const existing = values.get(key);
    values.set(key, existing === undefined ? value : `${existing},${value}`);
  }
  const sorted = new URLSearchParams();
  for (const key of [...values.keys()].sort((a, b) => a.localeCompare(b)))
    sorted.append(key, values.get(key) ?? "");
  const message = sorted.toString().replace(/\+/g, "%20");
  return createHmac("sha256", apiSecret).update(message).digest("hex");
}

/** The `host` parameter the admin passes an embedded app: the admin's address, base64. */
export function adminHostParameter(shopDomain: string): string {
  const handle = shopDomain.replace(/\.myshopify\.com$/, "");
  // Standard base64 without padding: @shopify/shopify-api's sanitizeHost refuses "-" and "_".
  return Buffer.from(`admin.shopify.com/store/${handle}`).toString("base64").replace(/=+$/, "");
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function sendErrorPage(reply: FastifyReply, status: number, title: string, message: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`,
    );
}

function sendTokenError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).send({ error, error_description: description });
}

/** A throttled or failing token endpoint, in the shape of Shopify's other error answers. */
function sendTokenFault(reply: FastifyReply, status: number) {
  if (status === 429) reply.header("Retry-After", "1");
  return reply
    .code(status)
    .send({ errors: status === 429 ? "Too many requests" : "Internal Server Error" });
}

function single(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  return undefined;
}

/** Shopify redirects only to the app's own addresses: same origin, under the app's path. */
function isUnderAppUrl(candidate: string, appUrl: string): boolean {
  if (!URL.canParse(candidate)) return false;
  const redirect = new URL(candidate);
  const app = new URL(appUrl);
  const appPath = app.pathname.endsWith("/") ? app.pathname : `${app.pathname}/`;
  return (
    redirect.origin === app.origin &&
    (redirect.pathname === app.pathname || redirect.pathname.startsWith(appPath))
  );
}

function scopesOf(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
}

function sameScopes(left: readonly string[], right: readonly string[]): boolean {
  const normalise = (scopes: readonly string[]) => [...new Set(scopes)].sort().join(",");
  return normalise(left) === normalise(right);
}

/**
 * Records the merchant's approval: installs the app with these scopes, or keeps the current
 * installation (and its offline token) when it already has them.
 */
export function recordGrant(state: StoreActions, shop: StoreShop, scopes: string[]): void {
  if (shop.installation && sameScopes(shop.installation.scopes, scopes)) return;
  state.install(shop.domain, scopes);
}

export interface OAuthRoutesOptions {
  state: StoreActions;
  grants: AccessGrants;
  appConfig: AppConfig;
  now: () => Date;
}

/** Registered under the per-shop prefix `/shops/:shop`. */
export async function registerOAuthRoutes(
  app: FastifyInstance,
  options: OAuthRoutesOptions,
): Promise<void> {
  const { state, grants, appConfig, now } = options;

  app.get<{ Params: { shop: string }; Querystring: Record<string, string | string[]> }>(
    "/admin/oauth/authorize",
    async (request, reply) => {
      const shop = state.shop(request.params.shop);
      if (!shop)
        return sendErrorPage(
          reply,
          404,
          "Shop not found",
          `There is no shop ${request.params.shop}.`,
        );
      const query = request.query;
      if (single(query.client_id) !== shop.app.apiKey)
        return sendErrorPage(
          reply,
          400,
          "Oauth error invalid_request",
          `The client_id is missing or is not the API key of the app of ${shop.domain}.`,
        );
      const redirectUri = single(query.redirect_uri);
      if (redirectUri === undefined || !isUnderAppUrl(redirectUri, shop.app.url))
        return sendErrorPage(
          reply,
          400,
          "Oauth error invalid_request",
          `The redirect_uri is missing or not whitelisted: it must be under ${shop.app.url}.`,
        );
      const requestedScopes = scopesOf(single(query.scope));
      recordGrant(state, shop, requestedScopes.length > 0 ? requestedScopes : appConfig.scopes);

      const grantOptions = query["grant_options[]"];
      const online = (Array.isArray(grantOptions) ? grantOptions : [grantOptions]).includes(
        "per-user",
      );
      const location = new URL(redirectUri);
      location.searchParams.set("code", grants.issueCode(shop.domain, online));
      location.searchParams.set("host", adminHostParameter(shop.domain));
      location.searchParams.set("shop", shop.domain);
      const clientState = single(query.state);
      if (clientState !== undefined) location.searchParams.set("state", clientState);
      location.searchParams.set("timestamp", String(Math.floor(now().getTime() / 1000)));
      location.searchParams.set("hmac", oauthQueryHmac(location.searchParams, shop.app.apiSecret));
      return reply.redirect(location.href, 302);
    },
  );

  app.post<{ Params: { shop: string }; Querystring: Record<string, string | string[]> }>(
    "/admin/oauth/access_token",
    async (request, reply) => {
      const shop = state.shop(request.params.shop);
      if (!shop) return reply.code(404).send({ errors: "Not Found" });
      // Shopify reads the parameters from a JSON or form body, or from the query string.
      const body: Record<string, unknown> =
        typeof request.body === "object" && request.body !== null
          ? (request.body as Record<string, unknown>)
          : {};
      const field = (name: string) => single(body[name]) ?? single(request.query[name]);

      if (field("client_id") !== shop.app.apiKey || field("client_secret") !== shop.app.apiSecret)
        return sendTokenError(
          reply,
          401,
          "invalid_client",
          "Client authentication failed: client_id or client_secret is missing or wrong.",
        );

      const grantType = field("grant_type");
      const expiring = field("expiring") === "1";
      if (grantType === REFRESH_TOKEN_GRANT) {
        grants.countRefreshRequest(shop.domain);
        const fault = grants.takeRefreshFault(shop.domain);
        if (fault && fault.delayMs > 0)
          await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (fault?.status) return sendTokenFault(reply, fault.status);
        const refreshToken = field("refresh_token");
        if (refreshToken === undefined)
          return sendTokenError(reply, 400, "invalid_request", "refresh_token is required.");
        const refreshed = grants.refresh(shop, refreshToken);
        if ("status" in refreshed)
          return sendTokenError(reply, 400, "invalid_grant", refreshed.reason);
        return refreshed;
      }
      if (grantType === TOKEN_EXCHANGE_GRANT) {
        const subjectToken = field("subject_token");
        if (subjectToken === undefined)
          return sendTokenError(reply, 400, "invalid_request", "subject_token is required.");
        const subjectType = field("subject_token_type");
        if (subjectType === OFFLINE_TOKEN_TYPE) {
          if (field("requested_token_type") !== OFFLINE_TOKEN_TYPE || !expiring)
            return sendTokenError(
              reply,
              400,
              "invalid_request",
              `An offline access token is exchanged only for an expiring one: requested_token_type must be ${OFFLINE_TOKEN_TYPE} and expiring 1.`,
            );
          if (!shop.installation)
            return sendTokenError(
              reply,
              400,
              "invalid_subject_token",
              `The app is not installed on ${shop.domain}.`,
            );
          const migrated = grants.migrate(shop, subjectToken);
          if ("status" in migrated)
            return sendTokenError(reply, 400, "invalid_subject_token", migrated.reason);
          return migrated;
        }
        if (subjectType !== ID_TOKEN_TYPE)
          return sendTokenError(
            reply,
            400,
            "invalid_request",
            `subject_token_type must be ${ID_TOKEN_TYPE} or ${OFFLINE_TOKEN_TYPE}.`,
          );
        const requestedType = field("requested_token_type");
        if (requestedType !== OFFLINE_TOKEN_TYPE && requestedType !== ONLINE_TOKEN_TYPE)
          return sendTokenError(
            reply,
            400,
            "invalid_request",
            `requested_token_type must be ${OFFLINE_TOKEN_TYPE} or ${ONLINE_TOKEN_TYPE}.`,
          );
        const check = verifySessionToken(subjectToken, {
          apiKey: shop.app.apiKey,
          apiSecret: shop.app.apiSecret,
          shop: shop.domain,
          now: now(),
        });
        if (check.status === "invalid")
          return sendTokenError(
            reply,
            400,
            "invalid_subject_token",
            `The session token ${check.reason}.`,
          );
        // The admin only issues session tokens for apps the shop has installed.
        const installation = shop.installation;
        if (!installation)
          return sendTokenError(
            reply,
            400,
            "invalid_subject_token",
            `The app is not installed on ${shop.domain}.`,
          );
        if (requestedType === OFFLINE_TOKEN_TYPE) {
          grants.recordOfflineExchange(shop.domain);
          return expiring
            ? grants.acquireExpiringOfflineToken(shop)
            : grants.nonExpiringOfflineToken(shop);
        }
        if (!/^\d+$/.test(check.claims.sub))
          return sendTokenError(
            reply,
            400,
            "invalid_subject_token",
            "The session token's sub is not a user ID.",
          );
        return grants.issueOnlineToken(shop, check.claims.sub);
      }
      if (grantType !== undefined && grantType !== "authorization_code")
        return sendTokenError(
          reply,
          400,
          "unsupported_grant_type",
          `grant_type ${grantType} is not supported.`,
        );

      const code = field("code");
      if (code === undefined)
        return sendTokenError(reply, 400, "invalid_request", "code is required.");
      const redeemed = grants.redeemCode(shop.domain, code);
      if (redeemed.status === "invalid")
        return sendTokenError(reply, 400, "invalid_request", redeemed.reason);
      const installation = shop.installation;
      if (!installation)
        return sendTokenError(
          reply,
          400,
          "invalid_request",
          `The app was uninstalled from ${shop.domain} after the grant.`,
        );
      if (redeemed.online) return grants.issueOnlineToken(shop, SHOP_OWNER_USER_ID);
      return expiring
        ? grants.acquireExpiringOfflineToken(shop)
        : grants.nonExpiringOfflineToken(shop);
    },
  );
}
