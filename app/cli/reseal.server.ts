import type { SecretBox } from "../crypto/secret-box.server";
import type { AppPrismaClient } from "../db/client.server";
import {
  listSealedSecretsAfter,
  resealSecretKey,
  resumeReadableConnection,
} from "../models/ShopConnection.server";
import {
  listSessionTokensAfter,
  resealSessionTokens,
  type SessionTokenField,
} from "../models/Session.server";
import { ENVIRONMENTS, type Environment } from "../protection/types";

// `keys:reseal`: every saved secret key, and every session's Shopify tokens (decision 044), sealed
// again with the current encryption key, so that earlier keys can be dropped (decision 017). Shops are read in pages by a keyset cursor on
// the shop domain; a value already under the current key is only checked, so a second run (or
// a run after an interrupted one) re-seals just what is left.

export interface ResealCounts {
  shops: number;
  resealed: number;
  alreadyCurrent: number;
  /** Saved again by the merchant while the command ran: the newer key was kept. */
  savedMeanwhile: number;
  unreadable: number;
  /** Shops paused because their key could not be opened, which now opens again. */
  resumed: number;
}

export interface UnreadableKey {
  shop: string;
  environment: Environment;
  /** The encryption key that sealed it, as the sealed value names it; null if malformed. */
  keyId: string | null;
  reason: string;
}

export interface SessionResealCounts {
  sessions: number;
  /** Stored in clear (before decision 044), sealed now. */
  sealed: number;
  resealed: number;
  alreadyCurrent: number;
  /** Stored again (a refresh, an install) while the command ran: the newer tokens were kept. */
  storedMeanwhile: number;
  unreadable: number;
}

export interface UnreadableSessionToken {
  sessionId: string;
  shop: string;
  field: SessionTokenField;
  /** The encryption key that sealed it, as the sealed value names it; null if malformed. */
  keyId: string | null;
  reason: string;
}

export interface ResealReport {
  currentKeyId: string;
  counts: ResealCounts;
  unreadable: UnreadableKey[];
  /** The Session table's access and refresh tokens. */
  sessions: { counts: SessionResealCounts; unreadable: UnreadableSessionToken[] };
}

export async function resealStoredSecrets(
  db: AppPrismaClient,
  box: SecretBox,
  options: { batchSize?: number } = {},
): Promise<ResealReport> {
  const batchSize = options.batchSize ?? 100;
  const counts: ResealCounts = {
    shops: 0,
    resealed: 0,
    alreadyCurrent: 0,
    savedMeanwhile: 0,
    unreadable: 0,
    resumed: 0,
  };
  const unreadable: UnreadableKey[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await listSealedSecretsAfter(db, after, batchSize);
    for (const record of page) {
      counts.shops += 1;
      for (const environment of ENVIRONMENTS) {
        const outcome = await resealSecretKey(db, box, record, environment);
        switch (outcome.status) {
          case "missing":
            break;
          case "unreadable":
            counts.unreadable += 1;
            unreadable.push({
              shop: record.shop,
              environment,
              keyId: outcome.keyId,
              reason: outcome.detail.reason,
            });
            break;
          case "changed":
            counts.savedMeanwhile += 1;
            break;
          case "current":
          case "resealed": {
            counts[outcome.status === "current" ? "alreadyCurrent" : "resealed"] += 1;
            const paused =
              record.status === "secret_unreadable" && record.environment === environment;
            if (
              paused &&
              (await resumeReadableConnection(db, record.shop, environment, outcome.sealed))
            ) {
              counts.resumed += 1;
            }
            break;
          }
        }
      }
    }
    if (page.length < batchSize) break;
    after = page.at(-1)!.shop;
  }
  return {
    currentKeyId: box.currentKeyId,
    counts,
    unreadable,
    sessions: await resealSessions(db, box, batchSize),
  };
}

/** Every session's tokens, read in pages by a keyset cursor on the session id. */
async function resealSessions(
  db: AppPrismaClient,
  box: SecretBox,
  batchSize: number,
): Promise<ResealReport["sessions"]> {
  const counts: SessionResealCounts = {
    sessions: 0,
    sealed: 0,
    resealed: 0,
    alreadyCurrent: 0,
    storedMeanwhile: 0,
    unreadable: 0,
  };
  const unreadable: UnreadableSessionToken[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await listSessionTokensAfter(db, after, batchSize);
    for (const row of page) {
      counts.sessions += 1;
      const outcome = await resealSessionTokens(db, box, row);
      switch (outcome.status) {
        case "unreadable":
          counts.unreadable += 1;
          unreadable.push({
            sessionId: row.id,
            shop: row.shop,
            field: outcome.field,
            keyId: outcome.keyId,
            reason: outcome.reason,
          });
          break;
        case "changed":
          counts.storedMeanwhile += 1;
          break;
        case "current":
          counts.alreadyCurrent += 1;
          break;
        case "sealed":
        case "resealed":
          counts[outcome.status] += 1;
          break;
      }
    }
    if (page.length < batchSize) break;
    after = page.at(-1)!.id;
  }
  return { counts, unreadable };
}
