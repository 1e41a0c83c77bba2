import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

/*
 * App Bridge session tokens: JWTs signed HS256 with the app's secret. The store mints them for a
 * managed install (as the Shopify admin does when it loads an embedded app) and checks them in
 * token exchange, with the 10 s clock leeway Shopify's libraries allow.
 */

export const SESSION_TOKEN_LEEWAY_SECONDS = 10;

export interface SessionTokenClaims {
  iss: string;
  dest: string;
  aud: string;
  sub: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
  sid: string;
}

function base64Url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

function signature(signingInput: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(signingInput).digest();
}

/** A session token for the shop's admin user, valid for 60 s from `now`. */
export function mintSessionToken(input: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  userId: string;
  now: Date;
}): { token: string; claims: SessionTokenClaims } {
  const issuedAt = Math.floor(input.now.getTime() / 1000);
  const claims: SessionTokenClaims = {
    iss: `https://${input.shop}/admin`,
    dest: `https://${input.shop}`,
    aud: input.apiKey,
    sub: input.userId,
    exp: issuedAt + 60,
    nbf: issuedAt,
    iat: issuedAt,
    jti: randomUUID(),
    sid: randomUUID(),
  };
  const signingInput = `${base64Url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64Url(JSON.stringify(claims))}`;
  return {
    token: `${signingInput}.${base64Url(signature(signingInput, input.apiSecret))}`,
    claims,
  };
}

/** A checkout UI extension's session token lives 5 minutes, as Shopify's. */
export const CHECKOUT_TOKEN_LIFETIME_SECONDS = 5 * 60;

export interface CheckoutSessionTokenClaims {
  dest: string;
  aud: string;
  /** The signed-in customer's GID; absent for a guest checkout. */
  sub?: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
}

/**
 * The token `shopify.sessionToken.get()` gives a checkout UI extension (the Thank-you page):
 * `dest` is the bare shop domain, `aud` the app's client ID, and `sub` only for a signed-in
 * customer. The app verifies it with `authenticate.public.checkout`.
 */
export function mintCheckoutSessionToken(input: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  customerGid?: string;
  now: Date;
}): { token: string; claims: CheckoutSessionTokenClaims } {
  const issuedAt = Math.floor(input.now.getTime() / 1000);
  const claims: CheckoutSessionTokenClaims = {
    dest: input.shop,
    aud: input.apiKey,
    ...(input.customerGid ? { sub: input.customerGid } : {}),
    exp: issuedAt + CHECKOUT_TOKEN_LIFETIME_SECONDS,
    nbf: issuedAt,
    iat: issuedAt,
    jti: randomUUID(),
  };
  const signingInput = `${base64Url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64Url(JSON.stringify(claims))}`;
  return {
    token: `${signingInput}.${base64Url(signature(signingInput, input.apiSecret))}`,
    claims,
  };
}

export type SessionTokenCheck =
  { status: "valid"; claims: SessionTokenClaims } | { status: "invalid"; reason: string };

function parseJsonSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks signature, audience, destination shop and time window; says what failed. */
export function verifySessionToken(
  token: string,
  expected: { apiKey: string; apiSecret: string; shop: string; now: Date },
): SessionTokenCheck {
  const segments = token.split(".");
  const [headerSegment, payloadSegment, signatureSegment] = segments;
  if (
    segments.length !== 3 ||
    headerSegment === undefined ||
    payloadSegment === undefined ||
    signatureSegment === undefined
  )
    return { status: "invalid", reason: "is not a JWT" };
  const header = parseJsonSegment(headerSegment);
  if (!isRecord(header) || header.alg !== "HS256")
    return { status: "invalid", reason: "is not signed with HS256" };
  const expectedSignature = signature(`${headerSegment}.${payloadSegment}`, expected.apiSecret);
  const givenSignature = Buffer.from(signatureSegment, "base64url");
  if (
    givenSignature.length !== expectedSignature.length ||
    !timingSafeEqual(givenSignature, expectedSignature)
  )
    return { status: "invalid", reason: "has a signature that does not match the app's secret" };
  const payload = parseJsonSegment(payloadSegment);
  if (!isRecord(payload)) return { status: "invalid", reason: "has no JSON payload" };
  const nowSeconds = expected.now.getTime() / 1000;
  if (typeof payload.exp !== "number" || payload.exp + SESSION_TOKEN_LEEWAY_SECONDS < nowSeconds)
    return { status: "invalid", reason: "has expired" };
  if (typeof payload.nbf === "number" && payload.nbf - SESSION_TOKEN_LEEWAY_SECONDS > nowSeconds)
    return { status: "invalid", reason: "is not valid yet (nbf)" };
  if (payload.aud !== expected.apiKey)
    return { status: "invalid", reason: "was issued for another app (aud)" };
  if (payload.dest !== `https://${expected.shop}`)
    return {
      status: "invalid",
      reason: `was issued for another shop (dest is not https://${expected.shop})`,
    };
  if (typeof payload.sub !== "string" || payload.sub === "")
    return { status: "invalid", reason: "names no user (sub)" };
  return { status: "valid", claims: payload as unknown as SessionTokenClaims };
}
