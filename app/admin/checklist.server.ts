import type { AppPrismaClient } from "../db/client.server";
import {
  checklistFrom,
  GO_LIVE_EVENT_TYPES,
  type ChecklistFacts,
  type GoLiveChecklist,
} from "./checklist";

/**
 * The go-live checklist of a shop (the home page shows it; the connection page's go-live switch
 * asks `readyToGoLive`). Three indexed queries: the connection, a count of protection items,
 * and the event types delivered in the sandbox, grouped in SQL.
 */
export async function goLiveChecklist(db: AppPrismaClient, shop: string): Promise<GoLiveChecklist> {
  return checklistFrom(await gatherChecklistFacts(db, shop));
}

export async function gatherChecklistFacts(
  db: AppPrismaClient,
  shop: string,
): Promise<ChecklistFacts> {
  const connection = await db.shopConnection.findUnique({
    where: { shop },
    select: {
      status: true,
      environment: true,
      sandboxKeyVerifiedAt: true,
      liveKeyVerifiedAt: true,
      liveSince: true,
      embedSeenAt: true,
      offerBlockSeenAt: true,
    },
  });
  // An event's environment is fixed when it is recorded, so a live shop's sandbox tests all
  // came before it went live: the search stays in that range (OutboxEvent [shop, createdAt])
  // instead of walking every delivered event of a busy live shop.
  const testedBefore =
    connection?.environment === "production" && connection.liveSince
      ? { createdAt: { lt: connection.liveSince } }
      : {};
  const [protectionItemCount, delivered] = await Promise.all([
    db.protectionItem.count({ where: { shop } }),
    db.outboxEvent.groupBy({
      by: ["eventType"],
      where: {
        shop,
        status: "delivered",
        environment: "sandbox",
        eventType: { in: [...GO_LIVE_EVENT_TYPES] },
        ...testedBefore,
      },
    }),
  ]);
  return {
    connection,
    protectionItemCount,
    deliveredSandboxEventTypes: delivered.map((row) => row.eventType),
  };
}
