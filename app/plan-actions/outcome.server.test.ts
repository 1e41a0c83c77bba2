import { describe, expect, it } from "vitest";
import { runSettlingRefusal, type ActionOutcome } from "./outcome.server";

/** A run that answers `outcomes` in turn, and counts its runs. */
function runs(...outcomes: ActionOutcome[]) {
  let count = 0;
  return {
    run: async () => outcomes[count++]!,
    count: () => count,
  };
}

const refused: ActionOutcome = { kind: "refused", detail: "Shopify refused the plan edit" };

describe("runSettlingRefusal", () => {
  it("records what a run that Shopify did not refuse came to, after one run", async () => {
    const action = runs({ kind: "done", detail: "Plan fulfilled" });
    expect(await runSettlingRefusal(action.run)).toEqual({
      kind: "done",
      detail: "Plan fulfilled",
    });
    expect(action.count()).toBe(1);
  });

  it("runs a refused action once more, and records what the fresh read decided", async () => {
    const cancelled = { kind: "done" as const, detail: "Not reduced: order #1001 is cancelled" };
    const action = runs(refused, cancelled);
    expect(await runSettlingRefusal(action.run)).toEqual(cancelled);
    expect(action.count()).toBe(2);
  });

  it("ends an action refused twice as dead, with the second refusal's reason", async () => {
    const again = { kind: "refused" as const, detail: "Shopify refused it again" };
    const action = runs(refused, again, { kind: "done", detail: "never run" });
    expect(await runSettlingRefusal(action.run)).toEqual({
      kind: "dead",
      detail: "Shopify refused it again",
    });
    expect(action.count()).toBe(2);
  });
});
