import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checklistFrom,
  checklistProgress,
  GO_LIVE_EVENT_TYPES,
  themeEditorLinks,
  type ChecklistFacts,
  type ChecklistStep,
} from "./checklist";

const AT = new Date("2026-11-20T09:30:00.000Z");
const LIVE_AT = new Date("2026-11-21T12:00:00.000Z");

/** Everything a shop does before going live, without the live key. */
function sandboxDone(): ChecklistFacts {
  return {
    connection: {
      status: "connected",
      environment: "sandbox",
      sandboxKeyVerifiedAt: AT,
      liveKeyVerifiedAt: null,
      liveSince: null,
      embedSeenAt: AT,
      offerBlockSeenAt: AT,
    },
    protectionItemCount: 2,
    deliveredSandboxEventTypes: [...GO_LIVE_EVENT_TYPES],
  };
}

function withConnection(patch: Partial<NonNullable<ChecklistFacts["connection"]>>) {
  const facts = sandboxDone();
  return { ...facts, connection: { ...facts.connection!, ...patch } };
}

function doneById(steps: ChecklistStep[]) {
  return Object.fromEntries(steps.map((step) => [step.id, step.done]));
}

function step<Id extends ChecklistStep["id"]>(steps: ChecklistStep[], id: Id) {
  const found = steps.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found as Extract<ChecklistStep, { id: Id }>;
}

describe("checklistFrom", () => {
  it("lists the seven steps in order, all open for a shop without a connection", () => {
    const checklist = checklistFrom({
      connection: null,
      protectionItemCount: 0,
      deliveredSandboxEventTypes: [],
    });
    expect(checklist.steps.map((s) => s.id)).toEqual([
      "sandbox_key",
      "protection_items",
      "app_embed",
      "offer_block",
      "test_order",
      "sandbox_events",
      "live",
    ]);
    expect(checklist.steps.every((s) => !s.done)).toBe(true);
    expect(checklist.readyToGoLive).toBe(false);
    expect(checklistProgress(checklist)).toEqual({ done: 0, total: 7 });
    expect(step(checklist.steps, "live").detail.environment).toBe("sandbox");
  });

  it("marks steps 1–6 done from the detected facts, and is not ready without a verified live key", () => {
    const checklist = checklistFrom(sandboxDone());
    expect(doneById(checklist.steps)).toEqual({
      sandbox_key: true,
      protection_items: true,
      app_embed: true,
      offer_block: true,
      test_order: true,
      sandbox_events: true,
      live: false,
    });
    expect(checklist.readyToGoLive).toBe(false);
    expect(step(checklist.steps, "sandbox_key").detail).toEqual({
      verifiedAt: AT.toISOString(),
      keyRejected: false,
    });
    expect(step(checklist.steps, "protection_items").detail).toEqual({ count: 2 });
    expect(step(checklist.steps, "app_embed").detail).toEqual({ seenAt: AT.toISOString() });
  });

  it("is ready to go live once the live key is verified too", () => {
    const checklist = checklistFrom(withConnection({ liveKeyVerifiedAt: LIVE_AT }));
    expect(checklist.readyToGoLive).toBe(true);
    expect(step(checklist.steps, "live")).toMatchObject({
      done: false,
      detail: { liveKeyVerifiedAt: LIVE_AT.toISOString(), liveSince: null },
    });
  });

  it.each([
    ["a sandbox key never verified", { sandboxKeyVerifiedAt: null }, "sandbox_key"],
    ["the embed never seen", { embedSeenAt: null }, "app_embed"],
    ["the offer block never seen", { offerBlockSeenAt: null }, "offer_block"],
  ] as const)("opens exactly one step and blocks go-live with %s", (_name, patch, id) => {
    const checklist = checklistFrom(withConnection({ ...patch, liveKeyVerifiedAt: LIVE_AT }));
    const open = checklist.steps.filter((s) => !s.done).map((s) => s.id);
    expect(open).toEqual([id, "live"]);
    expect(checklist.readyToGoLive).toBe(false);
  });

  it("does not count a verified sandbox key the service has since rejected", () => {
    const checklist = checklistFrom(
      withConnection({ status: "key_rejected", liveKeyVerifiedAt: LIVE_AT }),
    );
    expect(step(checklist.steps, "sandbox_key")).toMatchObject({
      done: false,
      detail: { keyRejected: true, verifiedAt: AT.toISOString() },
    });
    expect(checklist.readyToGoLive).toBe(false);
  });

  it("needs at least one protection item", () => {
    const checklist = checklistFrom({
      ...withConnection({ liveKeyVerifiedAt: LIVE_AT }),
      protectionItemCount: 0,
    });
    expect(step(checklist.steps, "protection_items")).toEqual({
      id: "protection_items",
      done: false,
      detail: { count: 0 },
    });
    expect(checklist.readyToGoLive).toBe(false);
  });

  it("shows each event type's state, and needs all four for the go-live rule", () => {
    for (const missing of GO_LIVE_EVENT_TYPES) {
      const checklist = checklistFrom({
        ...withConnection({ liveKeyVerifiedAt: LIVE_AT }),
        deliveredSandboxEventTypes: [
          ...GO_LIVE_EVENT_TYPES.filter((type) => type !== missing),
          "order_line_items_cancelled",
        ],
      });
      const events = step(checklist.steps, "sandbox_events");
      expect(events.done).toBe(false);
      expect(events.detail.delivered[missing]).toBe(false);
      expect(Object.values(events.detail.delivered).filter(Boolean)).toHaveLength(3);
      expect(step(checklist.steps, "test_order").done).toBe(missing !== "order_placed");
      expect(checklist.readyToGoLive).toBe(false);
    }
  });

  it("counts the test order as soon as one order_placed is delivered", () => {
    const checklist = checklistFrom({
      ...sandboxDone(),
      deliveredSandboxEventTypes: ["order_placed"],
    });
    expect(step(checklist.steps, "test_order").done).toBe(true);
    expect(step(checklist.steps, "sandbox_events").detail.delivered).toEqual({
      order_placed: true,
      order_fulfillment_added: false,
      order_refund_added: false,
      order_cancelled: false,
    });
  });

  it("is live only in production with liveSince set", () => {
    const live = checklistFrom(
      withConnection({
        environment: "production",
        liveKeyVerifiedAt: LIVE_AT,
        liveSince: LIVE_AT,
      }),
    );
    expect(step(live.steps, "live")).toEqual({
      id: "live",
      done: true,
      detail: {
        environment: "production",
        liveSince: LIVE_AT.toISOString(),
        liveKeyVerifiedAt: LIVE_AT.toISOString(),
      },
    });
    expect(checklistProgress(live)).toEqual({ done: 7, total: 7 });

    const switchedByHand = checklistFrom(withConnection({ environment: "production" }));
    expect(step(switchedByHand.steps, "live").done).toBe(false);
    const backInSandbox = checklistFrom(withConnection({ liveSince: LIVE_AT }));
    expect(step(backInSandbox.steps, "live").done).toBe(false);
  });
});

describe("themeEditorLinks", () => {
  it("deep-links the app embed (cart-rules) and adds the offer block to the product template", () => {
    expect(themeEditorLinks("nimbus.myshopify.com", "abc123")).toEqual({
      appEmbed:
        "https://nimbus.myshopify.com/admin/themes/current/editor?context=apps&activateAppId=abc123/cart-rules",
      offerBlock:
        "https://nimbus.myshopify.com/admin/themes/current/editor?template=product&addAppBlockId=abc123/protection-offer&target=mainSection",
    });
  });

  it("names blocks that exist: the embed targets the body, the offer block product pages", () => {
    const blocks = path.resolve(import.meta.dirname, "../../extensions/svc-protection/blocks");
    const schema = (handle: string) => {
      const liquid = readFileSync(path.join(blocks, `${handle}.liquid`), "utf8");
      const json = /{%\s*schema\s*%}([\s\S]*?){%\s*endschema\s*%}/.exec(liquid)?.[1];
      return JSON.parse(json ?? "null") as { target: string; enabled_on?: unknown };
    };
    const links = themeEditorLinks("nimbus.myshopify.com", "key");
    const embed = /activateAppId=key\/([\w-]+)$/.exec(links.appEmbed)?.[1] ?? "";
    const block = /addAppBlockId=key\/([\w-]+)&/.exec(links.offerBlock)?.[1] ?? "";
    expect(schema(embed).target).toBe("body");
    expect(schema(block)).toMatchObject({
      target: "section",
      enabled_on: { templates: ["product"] },
    });
  });
});
