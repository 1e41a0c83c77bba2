import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import toml from "toml";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { nodeArgsOfNpmScript } from "../bench/processes";
import { RELEASE_ROLES, releaseCommand, type ReleaseRole } from "./commands";

// The release's files agree with each other and with package.json: the Dockerfile, the Procfile
// and docker-compose.yml run the npm scripts' node commands (npm run test:release boots them),
// and shopify.web.toml passes the Shopify CLI's own loader (decision 040).

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const command = (role: ReleaseRole) => releaseCommand(ROOT, role);

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerInstructions(): { stage: string; keyword: string; args: string }[] {
  const joined = read("Dockerfile")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ");
  let stage = "";
  return joined
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      const [, keyword = "", args = ""] = /^\s*(\S+)\s*(.*)$/.exec(line) ?? [];
      if (keyword === "FROM") stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? "";
      return { stage, keyword, args: args.trim() };
    });
}

describe("the Procfile", () => {
  it("runs the release step, the web process and the worker as their npm scripts do", () => {
    const lines = read("Procfile").trim().split("\n");
    const entries = Object.fromEntries(lines.map((line) => line.split(/:\s+/, 2)));
    expect(Object.keys(entries).sort()).toEqual(Object.keys(RELEASE_ROLES).sort());
    for (const role of Object.keys(RELEASE_ROLES) as ReleaseRole[]) {
      expect(entries[role], role).toBe(command(role).join(" "));
    }
  });
});

describe("the Dockerfile", () => {
  const instructions = dockerInstructions();
  const runtime = instructions.filter((instruction) => instruction.stage === "runtime");
  const argsOf = (keyword: string) =>
    runtime.filter((instruction) => instruction.keyword === keyword).map((i) => i.args);

  it("builds the release with scripts/release.sh, as npm run test:release does", () => {
    const build = instructions.filter((instruction) => instruction.stage === "build");
    expect(build.map((i) => `${i.keyword} ${i.args}`)).toContain(
      "RUN bash scripts/release.sh /release",
    );
    expect(argsOf("COPY")).toContain("--from=build --chown=node:node /release ./");
  });

  it("runs Node 22 on Debian, as production, as a user who is not root", () => {
    expect(read("Dockerfile")).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim$/m);
    expect(argsOf("ENV").join(" ")).toMatch(/\bNODE_ENV=production\b/);
    expect(argsOf("USER")).toEqual(["node"]);
    expect(argsOf("EXPOSE")).toEqual(["3000"]);
  });

  it("runs npm start's node command by default, and checks /healthz", () => {
    expect(argsOf("CMD").map((args) => JSON.parse(args) as string[])).toEqual([command("web")]);
    expect(argsOf("HEALTHCHECK").join(" ")).toContain("/healthz");
  });

  it("leaves installed, built and secret files out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "build", ".env", "*.sqlite"]));
    // What scripts/release.sh copies must reach the build stage.
    for (const needed of ["app", "server", "prisma", "scripts", "package.json", "vite.config.ts"]) {
      expect(ignored).not.toContain(needed);
    }
  });
});

describe("docker-compose.yml", () => {
  interface Service {
    command?: string[];
    environment?: Record<string, string>;
    depends_on?: Record<string, { condition: string }>;
    deploy?: { replicas?: number };
  }
  const compose = parseYaml(read("docker-compose.yml"), { merge: true }) as {
    services: Record<string, Service>;
  };
  const { services } = compose;

  it("runs the release step once, then web and workers after it succeeded", () => {
    expect(services.migrate?.command).toEqual(command("release"));
    expect(services.worker?.command).toEqual(command("worker"));
    // The web process is the image's default command.
    expect(services.web?.command).toBeUndefined();
    for (const name of ["web", "worker"]) {
      expect(services[name]?.depends_on?.migrate, name).toEqual({
        condition: "service_completed_successfully",
      });
    }
    expect(services.web?.deploy?.replicas).toBe(2);
    expect(services.web?.environment?.SVC_OUTBOX_WORKER).toBe("off");
  });

  it("sends the app through PgBouncer in transaction mode, and migrations straight to PostgreSQL", () => {
    expect(services.pgbouncer?.environment?.POOL_MODE).toBe("transaction");
    for (const name of ["migrate", "web", "worker"]) {
      const environment = services[name]?.environment ?? {};
      expect(environment.DATABASE_URL, name).toMatch(/@pgbouncer:6432\//);
      expect(environment.DIRECT_DATABASE_URL, name).toMatch(/@postgres:5432\//);
      expect(environment.SVC_MIGRATE_ON_START, name).toBe("false");
      expect(environment.NODE_ENV, name).toBe("production");
    }
  });
});

describe("shopify.web.toml", () => {
  const web = toml.parse(read("shopify.web.toml")) as {
    roles: string[];
    webhooks_path: string;
    commands: { predev: string; dev: string };
  };
  const steps = (line: string) => line.split("&&").map((step) => step.trim().split(" "));

  it("serves the app's pages and its webhooks", () => {
    expect(web.roles.sort()).toEqual(["backend", "frontend"]);
    expect(read("shopify.app.toml")).toContain(`uri = "${web.webhooks_path}"`);
    const route = `app/routes/${web.webhooks_path.slice(1).replaceAll("/", ".")}.tsx`;
    expect(existsSync(path.join(ROOT, route)), route).toBe(true);
  });

  it("migrates with npm run db:migrate's command, then starts Remix's dev server", () => {
    expect(steps(web.commands.predev)).toEqual([["npm", "run", "db:generate"]]);
    expect(steps(web.commands.dev)).toEqual([
      ["node", "--env-file-if-exists=.env", ...nodeArgsOfNpmScript(ROOT, "db:migrate")],
      ["npm", "exec", "remix", "vite:dev"],
    ]);
  });

  describe("read by the Shopify CLI's own loader (shopify app build, offline)", () => {
    // The CLI takes seconds to start, more while the other test files share the two cores.
    const CLI_TIMEOUT_MS = 90_000;
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-web-toml-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const shopify = path.join(ROOT, "node_modules/.bin/shopify");
    const build = (webToml: string) => {
      cpSync(path.join(ROOT, "shopify.app.toml"), path.join(dir, "shopify.app.toml"));
      writeFileSync(path.join(dir, "package.json"), '{"name":"web-toml-check","private":true}');
      writeFileSync(path.join(dir, "shopify.web.toml"), webToml);
      const run = spawnSync(
        shopify,
        ["app", "build", "--path", dir, "--skip-dependencies-installation", "--no-color"],
        { encoding: "utf8", env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1" } },
      );
      return { status: run.status, output: `${run.stdout}${run.stderr}` };
    };

    it(
      "accepts ours",
      () => {
        const result = build(read("shopify.web.toml"));
        expect(result.output).toContain("built!");
        expect(result.status).toBe(0);
      },
      CLI_TIMEOUT_MS,
    );

    it(
      "refuses one without a dev command, so a broken file fails this test",
      () => {
        const broken = read("shopify.web.toml").replace(/^dev = .*$/m, "");
        const result = build(broken);
        expect(result.status).not.toBe(0);
        expect(result.output).toMatch(/shopify\.web\.toml[\s\S]*commands\.dev/);
      },
      CLI_TIMEOUT_MS,
    );
  });
});
