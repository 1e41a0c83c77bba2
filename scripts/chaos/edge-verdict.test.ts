import { describe, expect, it } from "vitest";
import { judgeEdge, type EdgeRun, type SignedDelivery } from "./edge-verdict";

function delivery(webhookId: string, fields: Partial<SignedDelivery> = {}): SignedDelivery {
  return { webhookId, status: 200, ms: 40, resend: false, ...fields };
}

function passingRun(fields: Partial<EdgeRun> = {}): EdgeRun {
  return {
    deliveries: [delivery("a"), delivery("b"), delivery("a", { resend: true })],
    health: [{ status: 200, ms: 5 }],
    receipts: new Map([
      ["a", 1],
      ["b", 1],
    ]),
    attacks: {
      "idle bodies": { "408": 3, "503": 2 },
      "trickled bodies": { "408": 1 },
      "forged HMAC": { "401": 10 },
      "oversized bodies": { "413": 2 },
      "huge headers": { "431": 2 },
      "budget fillers": { "503": 7, "0": 1 },
    },
    serverAlive: true,
    ...fields,
  };
}

function failed(run: EdgeRun): string[] {
  return judgeEdge(run)
    .filter((check) => !check.ok)
    .map((check) => check.name);
}

describe("judgeEdge", () => {
  it("passes a run where every signed delivery was taken in time, once, and every attack refused", () => {
    expect(failed(passingRun())).toEqual([]);
  });

  it("fails a signed delivery refused, unanswered or answered after a second", () => {
    for (const late of [{ status: 503 }, { status: 0 }, { ms: 1_001 }]) {
      const run = passingRun({ deliveries: [delivery("a"), delivery("b", late)] });
      expect(failed(run)).toEqual([expect.stringMatching(/^every signed delivery answered 200/)]);
    }
    const check = judgeEdge(
      passingRun({ deliveries: [delivery("a"), delivery("b", { status: 503, ms: 12 })] }),
    )[0]!;
    expect(check.detail).toBe("1: b 503 in 12 ms");
  });

  it("fails a delivery stored twice or not at all", () => {
    expect(
      failed(
        passingRun({
          receipts: new Map([
            ["a", 2],
            ["b", 1],
          ]),
        }),
      ),
    ).toEqual([
      "every signed delivery answered 200 stored once, re-sends included, and none twice",
    ]);
    expect(failed(passingRun({ receipts: new Map([["a", 1]]) }))).toEqual([
      "every signed delivery answered 200 stored once, re-sends included, and none twice",
    ]);
    // Refused and not stored is what Shopify re-sends: only the answer's check fails.
    const refused = passingRun({
      deliveries: [delivery("a"), delivery("b", { status: 503 })],
      receipts: new Map([["a", 1]]),
    });
    expect(failed(refused)).toEqual([
      expect.stringMatching(/^every signed delivery answered 200 within/),
    ]);
  });

  it("fails a slow or failed health check, and a server that went down", () => {
    expect(failed(passingRun({ health: [{ status: 200, ms: 1_500 }] }))).toEqual([
      expect.stringMatching(/^\/healthz answered 200/),
    ]);
    expect(failed(passingRun({ serverAlive: false }))).toEqual(["the server stayed up"]);
  });

  it("fails a run that sent nothing or checked nothing: it proves nothing", () => {
    expect(failed(passingRun({ deliveries: [], health: [] }))).toEqual([
      expect.stringMatching(/^every signed delivery answered 200/),
      "every signed delivery answered 200 stored once, re-sends included, and none twice",
      expect.stringMatching(/^\/healthz answered 200/),
    ]);
  });

  it("fails a server error to an attacker, but not a 503", () => {
    const attacks = { ...passingRun().attacks, "forged X-Forwarded-For": { "500": 1, "401": 3 } };
    const checks = judgeEdge(passingRun({ attacks }));
    expect(checks.filter((check) => !check.ok).map((check) => check.detail)).toEqual([
      "1: forged X-Forwarded-For: 1 × 500",
    ]);
  });

  it("fails an attack that was never refused the way decision 041 says", () => {
    const { "trickled bodies": _trickled, ...attacks } = passingRun().attacks;
    expect(failed(passingRun({ attacks: { ...attacks, "idle bodies": { "503": 5 } } }))).toEqual([
      "idle senders cut off after the rate window (idle bodies: 0 × 408)",
      "senders below the minimum rate cut off (trickled bodies: 0 × 408)",
    ]);
  });
});
