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
 */

export const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
export const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

const CODE_LIFETIME_MS = 60_000;
/** Shopify's online tokens last a day, less a second. */
const ONLINE_TOKEN_LIFETIME_SECONDS = 86_399;

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

export type AccessTokenKind = "offline" | "online";

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
    if (this.state.shopByAccessToken(token)?.domain === shop) return "offline";
    const online = this.#onlineTokens.get(token);
    if (!online || online.shop !== shop || online.expiresAt <= this.now().getTime()) return null;
    const installation = this.state.shop(shop)?.installation;
    return installation?.offlineAccessToken === online.offlineAccessToken ? "online" : null;
  }

  reset(): void {
    this.#codes.clear();
    this.#onlineTokens.clear();
    this.#offlineExchanges.clear();
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
      if (grantType === TOKEN_EXCHANGE_GRANT) {
        const subjectToken = field("subject_token");
        if (subjectToken === undefined)
          return sendTokenError(reply, 400, "invalid_request", "subject_token is required.");
        if (field("subject_token_type") !== ID_TOKEN_TYPE)
          return sendTokenError(
            reply,
            400,
            "invalid_request",
            `subject_token_type must be ${ID_TOKEN_TYPE}.`,
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
          return {
            access_token: installation.offlineAccessToken,
            scope: installation.scopes.join(","),
          };
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
      return {
        access_token: installation.offlineAccessToken,
        scope: installation.scopes.join(","),
      };
    },
  );
}
