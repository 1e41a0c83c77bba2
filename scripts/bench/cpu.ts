import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

// Where the machine's CPU time goes while a benchmark measures: ours (the app, the load
// generator, PostgreSQL) against the whole machine, read from /proc, so that a run disturbed by
// other work (other people's builds and tests, the hypervisor's steal) says so.

/** Clock ticks of /proc in ms: USER_HZ is 100 on Linux. */
export const TICK_MS = 10;

/** Other processes using more than this many CPUs during a phase make its figures unreliable. */
export const DISTURBED_CPUS = 0.15;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), from 0. */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function commandNameOf(pid: string): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
}

/** The pids in /proc; any of them may end before it is read. */
function processEntries(): string[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
}

/** utime + stime of a process's stat fields, in ms. */
function cpuMsOf(fields: string[]): number {
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** User plus system CPU time of a process so far, in ms. */
export function cpuTimeMs(pid: number | string): number {
  return cpuMsOf(statFields(pid));
}

/** CPU time the whole machine spent busy (steal included: it was not ours to use), in ms. */
export function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n", 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (
    ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) *
    TICK_MS
  );
}

/** CPU time of every PostgreSQL process so far, in ms. */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of processEntries()) {
    try {
      if (commandNameOf(entry) === "postgres") total += cpuTimeMs(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** CPU time of this process so far, in ms. */
export function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Starts counting one source's CPU time; the result reads the ms it used since, once. */
export type CpuCounter = () => () => number;

function counterOf(read: () => number): CpuCounter {
  return () => {
    const start = read();
    return () => read() - start;
  };
}

/** One process (its threads, not its children). */
export const processCpu = (pid: number): CpuCounter => counterOf(() => cpuTimeMs(pid));
/** This process: the load generator, or the loaders called in-process. */
export const selfCpu: CpuCounter = counterOf(selfCpuMs);
/** Every PostgreSQL process, whoever's queries it runs. */
export const postgresCpu: CpuCounter = counterOf(postgresCpuMs);

const TREE_SAMPLE_MS = 250;

/** CPU each process of the tree under `rootPid` has used so far, by "pid:starttime" (pids are reused). */
function treeSample(rootPid: number): Map<string, number> {
  const processes = new Map<string, { pid: number; ppid: number; cpuMs: number }>();
  for (const entry of processEntries()) {
    try {
      const fields = statFields(entry);
      processes.set(`${entry}:${fields[19]}`, {
        pid: Number(entry),
        ppid: Number(fields[1]),
        cpuMs: cpuMsOf(fields),
      });
    } catch {
      // Ended meanwhile.
    }
  }
  const children = new Map<number, string[]>();
  for (const [key, proc] of processes) {
    children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), key]);
  }
  const sample = new Map<string, number>();
  const queue = [...processes.keys()].filter((key) => processes.get(key)!.pid === rootPid);
  while (queue.length) {
    const key = queue.pop()!;
    const proc = processes.get(key)!;
    sample.set(key, proc.cpuMs);
    queue.push(...(children.get(proc.pid) ?? []));
  }
  return sample;
}

/**
 * A process and all its descendants. Chromium's renderers often end without their parent
 * waiting for them (their CPU then never reaches the tree's counters), so the tree is sampled
 * every 250 ms while the phase runs; a process that starts during the phase counts from 0.
 */
export function processTreeCpu(rootPid: number): CpuCounter {
  return () => {
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    let initial = true;
    const sample = () => {
      for (const [key, cpuMs] of treeSample(rootPid)) {
        if (!first.has(key)) first.set(key, initial ? cpuMs : 0);
        last.set(key, cpuMs);
      }
      initial = false;
    };
    sample();
    const timer = setInterval(sample, TREE_SAMPLE_MS);
    return () => {
      clearInterval(timer);
      sample();
      let used = 0;
      for (const [key, cpuMs] of last) used += cpuMs - (first.get(key) ?? 0);
      return used;
    };
  };
}

/**
 * Each source's CPU time over a phase, in CPUs (1 = one core fully busy over `wallMs`), and
 * `other`: everything else the machine ran meanwhile.
 */
export type CpuShares<Source extends string> = { wallMs: number; other: number } & {
  [name in Source]: number;
};

/** Starts accounting where the machine's CPU time goes; call the result when the phase ends. */
export function accountCpu<Source extends string>(
  sources: Record<Source, CpuCounter>,
): () => CpuShares<Source> {
  const at = performance.now();
  const machine = machineBusyMs();
  const readers = (Object.entries(sources) as [Source, CpuCounter][]).map(
    ([name, count]) => [name, count()] as const,
  );
  return () => {
    const wallMs = performance.now() - at;
    const used = readers.map(([name, read]) => [name, read()] as const);
    const ours = used.reduce((sum, [, ms]) => sum + ms, 0);
    const other = Math.max(0, machineBusyMs() - machine - ours);
    const shares = Object.fromEntries(used.map(([name, ms]) => [name, ms / wallMs]));
    return { ...shares, wallMs, other: other / wallMs } as CpuShares<Source>;
  };
}
