import { describe, expect, it } from "vitest";
import { accountCpu, processTreeCpu, selfCpu, type CpuCounter } from "./cpu";

/** A source that has used `ms` of CPU by the time the phase ends. */
const used =
  (ms: number): CpuCounter =>
  () =>
  () =>
    ms;

function spin(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy on purpose: CPU time for the counters to see.
  }
}

describe("accountCpu", () => {
  it("gives each source's CPU time over the wall time, and the machine's rest as other", () => {
    const stop = accountCpu({ app: used(0), postgres: used(0) });
    spin(50);
    const shares = stop();
    expect(shares.wallMs).toBeGreaterThanOrEqual(50);
    expect(shares.app).toBe(0);
    expect(shares.postgres).toBe(0);
    // The 50 ms this process spun were not counted as a source: they are part of "other".
    expect(shares.other).toBeGreaterThan(0);
  });

  it("reads this process and its tree", () => {
    const stop = accountCpu({ self: selfCpu, tree: processTreeCpu(process.pid) });
    spin(100);
    const shares = stop();
    expect(shares.self).toBeGreaterThan(0);
    // /proc counts in 10 ms ticks: the tree (this process, no children) saw about the same time.
    expect(Math.abs(shares.tree - shares.self) * shares.wallMs).toBeLessThan(40);
  });

  it("divides a source's milliseconds by the wall time", () => {
    const stop = accountCpu({ app: used(1_000_000) });
    const shares = stop();
    expect(shares.app).toBeCloseTo(1_000_000 / shares.wallMs, 6);
  });
});
