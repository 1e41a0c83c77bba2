import { readFileSync } from "node:fs";
import { collectDefaultMetrics, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { registry } from "../app/metrics/registry.server";

// The alert rules and the dashboard (decision 050) name metrics only by strings, so nothing but
// this test notices when one names a metric the app does not export. promtool runs the rules
// themselves (npm run test:alerts).

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface AlertTest {
  alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[];
}
interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  targets?: { expr: string; refId: string }[];
  datasource?: { uid: string };
}

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const rulesFile = parseYaml(read("ops/prometheus/alerts.yml")) as {
  groups: { name: string; rules: AlertRule[] }[];
};
const rules = rulesFile.groups.flatMap((group) => group.rules);
const ruleTests = (parseYaml(read("ops/prometheus/alerts.test.yml")) as { tests: AlertTest[] })
  .tests;
const dashboard = JSON.parse(read("ops/grafana/svc-protection.json")) as {
  uid: string;
  panels: DashboardPanel[];
  templating: { list: { name: string; type: string }[] };
};
const queryPanels = dashboard.panels.filter((panel) => panel.type !== "row");

/** Metric names in a PromQL expression, read loosely: label matchers and groupings left out. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, "")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  return [...bare.matchAll(/\b(?:svc|nodejs|process)_[a-z0-9_]+/g)].map((match) => match[0]);
}

/** The series names a registry exposes: histograms add _bucket, _sum and _count. */
async function exposedNames(source: Registry): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await source.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram") {
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
    }
  }
  return names;
}

async function knownMetricNames(): Promise<Set<string>> {
  // prom-client's default process and Node metrics, from a registry of their own: the app's
  // registry adds them only when metrics are served.
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  return new Set([...(await exposedNames(registry)), ...(await exposedNames(defaults))]);
}

/** GitHub's anchor for a Markdown heading. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

describe("metricNamesIn", () => {
  it("finds metric names and leaves out labels, groupings and functions", () => {
    expect(
      metricNamesIn(
        'sum by (process_type) (rate(svc_webhooks_received_total{result="svc_x"}[5m])) / ' +
          "max(nodejs_heap_size_used_bytes) - time()",
      ),
    ).toEqual(["svc_webhooks_received_total", "nodejs_heap_size_used_bytes"]);
  });
});

describe("ops/prometheus/alerts.yml", () => {
  it("has the five alerts of issue 28", () => {
    expect(rules.map((rule) => rule.alert)).toEqual([
      "SvcOutboxOldestPendingOver15m",
      "SvcOutboxDeadEventsRising",
      "SvcWebhooksRefused503",
      "SvcWorkerHeartbeatMissing",
      "SvcReconcileRecoveringInARow",
    ]);
  });

  it("names only metrics the app exports", async () => {
    const known = await knownMetricNames();
    for (const rule of rules) {
      const names = metricNamesIn(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(known, `${rule.alert}: ${name}`).toContain(name);
    }
  });

  it("gives each alert a for-duration, a severity, a summary, a description and a runbook", () => {
    const operating = read("docs/operating.md");
    const anchors = new Set(
      [...operating.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingAnchor(match[1] ?? "")),
    );
    for (const rule of rules) {
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(["critical", "warning"], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      const runbook = rule.annotations?.runbook_url ?? "";
      expect(runbook, rule.alert).toMatch(/^docs\/operating\.md#/);
      expect(anchors, `${rule.alert}: ${runbook}`).toContain(runbook.split("#")[1]);
    }
  });

  it("has promtool tests that see each alert fire and stay quiet", () => {
    const cases = ruleTests.flatMap((test) => test.alert_rule_test ?? []);
    for (const rule of rules) {
      const own = cases.filter((test) => test.alertname === rule.alert);
      expect(
        own.some((test) => test.exp_alerts.length > 0),
        `${rule.alert} fires`,
      ).toBe(true);
      expect(
        own.some((test) => test.exp_alerts.length === 0),
        `${rule.alert} stays quiet`,
      ).toBe(true);
    }
  });
});

describe("ops/grafana/svc-protection.json", () => {
  it("queries only metrics the app exports, through the chosen data source", async () => {
    const known = await knownMetricNames();
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: "datasource", type: "datasource" }),
    );
    for (const panel of queryPanels) {
      expect(panel.datasource?.uid, panel.title).toBe("${datasource}");
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        const names = metricNamesIn(target.expr);
        expect(names.length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
        for (const name of names) expect(known, `${panel.title}: ${name}`).toContain(name);
      }
    }
  });

  it("shows every svc_ metric the app exports", async () => {
    const shown = new Set(
      queryPanels.flatMap((panel) =>
        (panel.targets ?? []).flatMap((target) => metricNamesIn(target.expr)),
      ),
    );
    const exported = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    for (const name of exported) {
      const family = [name, `${name}_bucket`, `${name}_sum`, `${name}_count`];
      expect(
        family.some((series) => shown.has(series)),
        `${name} has no panel`,
      ).toBe(true);
    }
  });

  it("has unique panel ids", () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
