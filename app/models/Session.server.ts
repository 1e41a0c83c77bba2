import {
  isSealedForm,
  SEALED_PREFIX,
  SecretBoxError,
  type SecretBox,
} from "../crypto/secret-box.server";
import type { AppPrismaClient } from "../db/client.server";

// The Session table's Shopify tokens at rest (decision 044): the offline access token and the
// rotating refresh token are sealed with the app's secret box, bound to the session's id and the
// field. Shopify's session storage writes and reads the table through the sealing storage
// (session-storage.server.ts); this file holds the sealing rules and the token writes that
// storage, the start-up step and `keys:reseal` share.

export const SESSION_TOKEN_FIELDS = ["accessToken", "refreshToken"] as const;
export type SessionTokenField = (typeof SESSION_TOKEN_FIELDS)[number];

/** A session's tokens as the table holds them: sealed, or clear in a row from before 044. */
export interface StoredSessionTokens {
  id: string;
  shop: string;
  /** "" when the session has no token (the library's storage writes it so). */
  accessToken: string;
  refreshToken: string | null;
}

/** What a sealed token is bound to: a token copied into another row or column does not open. */
export function sessionTokenContext(sessionId: string, field: SessionTokenField): string {
  return `session:${sessionId}:${field}`;
}

export type StoredTokenValue =
  | { status: "absent" }
  | { status: "clear"; token: string }
  | { status: "open"; token: string; keyId: string }
  | { status: "unreadable"; keyId: string | null; reason: string };

/** A stored token, opened if it is sealed. Never throws for a value that does not open. */
export function readSessionToken(
  box: SecretBox,
  sessionId: string,
  field: SessionTokenField,
  stored: string | null | undefined,
): StoredTokenValue {
  if (!stored) return { status: "absent" };
  if (!isSealedForm(stored)) return { status: "clear", token: stored };
  try {
    const token = box.open(stored, sessionTokenContext(sessionId, field));
    return { status: "open", token, keyId: box.keyIdOf(stored)! };
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    return { status: "unreadable", keyId: error.keyId, reason: error.message };
  }
}

/** A token as the table stores it; an absent token stays as the library writes it. */
export function sealSessionToken(
  box: SecretBox,
  sessionId: string,
  field: SessionTokenField,
  token: string | undefined,
): string | undefined {
  return token ? box.seal(token, sessionTokenContext(sessionId, field)) : token;
}

export type SessionResealOutcome =
  /** Every token was already sealed with the current key (each one opened). */
  | { status: "current" }
  /** Sealed now: at least one token was clear (a row from before 044). */
  | { status: "sealed" }
  /** Sealed again with the current key: a token was sealed with an earlier key. */
  | { status: "resealed" }
  /** Stored again while this ran: the newer tokens were kept. */
  | { status: "changed" }
  | {
      status: "unreadable";
      field: SessionTokenField;
      keyId: string | null;
      reason: string;
    };

/**
 * Seals a session's clear tokens, and seals again those an earlier key sealed, with the current
 * key. The write is conditional on the tokens read, so tokens stored meanwhile (a refresh) win.
 */
export async function resealSessionTokens(
  db: AppPrismaClient,
  box: SecretBox,
  row: StoredSessionTokens,
): Promise<SessionResealOutcome> {
  const next: Partial<Record<SessionTokenField, string>> = {};
  let wasClear = false;
  for (const field of SESSION_TOKEN_FIELDS) {
    const value = readSessionToken(box, row.id, field, row[field]);
    switch (value.status) {
      case "absent":
        break;
      case "unreadable":
        return { status: "unreadable", field, keyId: value.keyId, reason: value.reason };
      case "clear":
        wasClear = true;
        next[field] = box.seal(value.token, sessionTokenContext(row.id, field));
        break;
      case "open":
        if (value.keyId !== box.currentKeyId) {
          next[field] = box.seal(value.token, sessionTokenContext(row.id, field));
        }
        break;
    }
  }
  if (Object.keys(next).length === 0) return { status: "current" };
  const { count } = await db.session.updateMany({
    where: { id: row.id, accessToken: row.accessToken, refreshToken: row.refreshToken },
    data: next,
  });
  if (count === 0) return { status: "changed" };
  return { status: wasClear ? "sealed" : "resealed" };
}

const TOKEN_COLUMNS = { id: true, shop: true, accessToken: true, refreshToken: true } as const;

/** A page of sessions' stored tokens after `after` (a keyset cursor on the id). */
export function listSessionTokensAfter(
  db: AppPrismaClient,
  after: string | null,
  take: number,
): Promise<StoredSessionTokens[]> {
  return db.session.findMany({
    where: after === null ? {} : { id: { gt: after } },
    select: TOKEN_COLUMNS,
    orderBy: { id: "asc" },
    take,
  });
}

/** Sessions with a token stored in clear: rows from before 044, or written past the storage. */
function listClearSessionTokensAfter(
  db: AppPrismaClient,
  after: string | null,
  take: number,
): Promise<StoredSessionTokens[]> {
  return db.session.findMany({
    where: {
      ...(after === null ? {} : { id: { gt: after } }),
      OR: [
        { accessToken: { not: "" }, NOT: { accessToken: { startsWith: SEALED_PREFIX } } },
        { refreshToken: { not: null }, NOT: { refreshToken: { startsWith: SEALED_PREFIX } } },
      ],
    },
    select: TOKEN_COLUMNS,
    orderBy: { id: "asc" },
    take,
  });
}

/**
 * The start-up step (decision 044): every session token still stored in clear is sealed with the
 * current key. Tokens that are sealed already are not opened. Returns how many sessions it sealed.
 */
export async function sealClearSessionTokens(
  db: AppPrismaClient,
  box: SecretBox,
  options: { batchSize?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  let sealed = 0;
  let after: string | null = null;
  for (;;) {
    const page = await listClearSessionTokensAfter(db, after, batchSize);
    for (const row of page) {
      if ((await resealSessionTokens(db, box, row)).status === "sealed") sealed += 1;
    }
    if (page.length < batchSize) return sealed;
    after = page.at(-1)!.id;
  }
}
