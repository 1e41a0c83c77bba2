import { beforeAll, describe, expect, it } from "vitest";
import type * as ListRoute from "../../app/routes/app.events/route";
import { createTranslator } from "../../app/i18n/translate";
import { testDatabaseProvider } from "../support/databases";
import { createOfflineSession } from "../support/offline-session";
import { withOutboxApp } from "../support/outbox-app";
import { adminRequest, callRoute, routeData } from "../support/routes";

// The merchant's event log says how far back it reaches (issue 28, decision 049): rows older
// than SVC_EVENT_RETENTION_DAYS are deleted, so the page must not look complete when it is not.

const provider = testDatabaseProvider();
const SHOP = "event-log-retention.myshopify.com";
const app = withOutboxApp();
let listLoader: typeof ListRoute.loader;

beforeAll(async () => {
  ({ loader: listLoader } = await import("../../app/routes/app.events/route"));
  await createOfflineSession(app.prisma, SHOP, `shpat_${SHOP}`);
});

describe(`event log retention notice on ${provider}`, () => {
  it("the log's loader gives the retention period, and the page says it in each language", async () => {
    for (const tab of ["", "?tab=webhooks"]) {
      const data = routeData(await callRoute(listLoader, adminRequest(SHOP, `/app/events${tab}`)));
      expect(data).toMatchObject({ retentionDays: 180 });
    }
    expect(createTranslator("en")("events.retention", { days: 180 })).toBe(
      "Events are kept for 180 days; each order's order placed event stays, so that later events of the order can follow it.",
    );
    expect(createTranslator("de")("events.retention", { days: 180 })).toBe(
      "Ereignisse werden 180 Tage lang aufbewahrt; das Ereignis „Bestellung aufgegeben“ jeder Bestellung bleibt, damit spätere Ereignisse der Bestellung ihm folgen können.",
    );
  });
});
