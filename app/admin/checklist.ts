/**
 * The onboarding checklist as pure decisions on facts the app detected: nothing here is ticked
 * by hand, and nothing here touches the database (checklist.server.ts gathers the facts).
 */

/** Spec obligation 10: these four kinds are tested in the sandbox before going live. */
export const GO_LIVE_EVENT_TYPES = [
  "order_placed",
  "order_fulfillment_added",
  "order_refund_added",
  "order_cancelled",
] as const;
export type GoLiveEventType = (typeof GO_LIVE_EVENT_TYPES)[number];

export interface ChecklistFacts {
  /** The shop's connection; null before the app wrote one. */
  connection: {
    status: string;
    environment: string;
    sandboxKeyVerifiedAt: Date | null;
    liveKeyVerifiedAt: Date | null;
    liveSince: Date | null;
    embedSeenAt: Date | null;
    offerBlockSeenAt: Date | null;
  } | null;
  protectionItemCount: number;
  /** Event types with at least one event delivered in the sandbox. */
  deliveredSandboxEventTypes: readonly string[];
}

export type ChecklistStep =
  | {
      id: "sandbox_key";
      done: boolean;
      detail: { verifiedAt: string | null; keyRejected: boolean };
    }
  | { id: "protection_items"; done: boolean; detail: { count: number } }
  | { id: "app_embed"; done: boolean; detail: { seenAt: string | null } }
  | { id: "offer_block"; done: boolean; detail: { seenAt: string | null } }
  | { id: "test_order"; done: boolean }
  | {
      id: "sandbox_events";
      done: boolean;
      detail: { delivered: Record<GoLiveEventType, boolean> };
    }
  | {
      id: "live";
      done: boolean;
      detail: { environment: string; liveSince: string | null; liveKeyVerifiedAt: string | null };
    };

export type ChecklistStepId = ChecklistStep["id"];

export interface GoLiveChecklist {
  steps: ChecklistStep[];
  /** Steps 1–6 are done and the live key passed a live call: the shop may switch to production. */
  readyToGoLive: boolean;
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function checklistFrom(facts: ChecklistFacts): GoLiveChecklist {
  const connection = facts.connection;
  const keyRejected = connection?.status === "key_rejected";
  const delivered = new Set(facts.deliveredSandboxEventTypes);
  const deliveredByType = Object.fromEntries(
    GO_LIVE_EVENT_TYPES.map((type) => [type, delivered.has(type)]),
  ) as Record<GoLiveEventType, boolean>;

  const steps: ChecklistStep[] = [
    {
      id: "sandbox_key",
      done: Boolean(connection?.sandboxKeyVerifiedAt) && !keyRejected,
      detail: { verifiedAt: iso(connection?.sandboxKeyVerifiedAt), keyRejected },
    },
    {
      id: "protection_items",
      done: facts.protectionItemCount > 0,
      detail: { count: facts.protectionItemCount },
    },
    {
      id: "app_embed",
      done: Boolean(connection?.embedSeenAt),
      detail: { seenAt: iso(connection?.embedSeenAt) },
    },
    {
      id: "offer_block",
      done: Boolean(connection?.offerBlockSeenAt),
      detail: { seenAt: iso(connection?.offerBlockSeenAt) },
    },
    { id: "test_order", done: deliveredByType.order_placed },
    {
      id: "sandbox_events",
      done: GO_LIVE_EVENT_TYPES.every((type) => deliveredByType[type]),
      detail: { delivered: deliveredByType },
    },
    {
      id: "live",
      done: connection?.environment === "production" && Boolean(connection.liveSince),
      detail: {
        environment: connection?.environment ?? "sandbox",
        liveSince: iso(connection?.liveSince),
        liveKeyVerifiedAt: iso(connection?.liveKeyVerifiedAt),
      },
    },
  ];
  const beforeLive = steps.filter((step) => step.id !== "live");
  return {
    steps,
    readyToGoLive: beforeLive.every((step) => step.done) && Boolean(connection?.liveKeyVerifiedAt),
  };
}

/** How many steps are done, for the progress bar. */
export function checklistProgress(checklist: GoLiveChecklist): { done: number; total: number } {
  return {
    done: checklist.steps.filter((step) => step.done).length,
    total: checklist.steps.length,
  };
}

/**
 * The theme editor's deep links: one turns on the app embed (its handle is the liquid file
 * name, blocks/cart-rules.liquid), one adds the offer block to the product template's main
 * section (blocks/protection-offer.liquid).
 */
export function themeEditorLinks(shop: string, apiKey: string) {
  const editor = `https://${shop}/admin/themes/current/editor`;
  return {
    appEmbed: `${editor}?context=apps&activateAppId=${apiKey}/cart-rules`,
    offerBlock: `${editor}?template=product&addAppBlockId=${apiKey}/protection-offer&target=mainSection`,
  };
}
