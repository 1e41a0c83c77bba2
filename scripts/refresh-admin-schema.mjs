// npm run schema:refresh [-- --package @shopify/dev-mcp@<version>] [--api-version YYYY-MM]
//
// Refreshes graphql/admin-<version>.schema.json.gz, the Admin GraphQL introspection of the API
// version the app uses (decision 019), from the one place Shopify publishes it offline: the npm
// package @shopify/dev-mcp (ISC), fetched with `npm pack`, never installed. The file is copied
// byte for byte, so its sha256 in admin-<version>.source.json can be checked against the package.
// Prints what changed for the schema; then run `npm run graphql:codegen` and `npm run
// graphql:check`.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildClientSchema, findBreakingChanges, findDangerousChanges } from "graphql";
import {
  REPO_ROOT,
  SCHEMA_DIR,
  appApiVersion,
  committedSchemaVersions,
  parseIntrospection,
  schemaFileOf,
} from "../graphql/admin-schema.mjs";

const DATA_DIR = "package/dist/data";

const { values } = parseArgs({
  options: {
    package: { type: "string", default: "@shopify/dev-mcp@latest" },
    "api-version": { type: "string" },
  },
});
const apiVersion = values["api-version"] ?? (await appApiVersion());
if (!/^\d{4}-\d{2}$/.test(apiVersion)) throw new Error(`Not an API version: ${apiVersion}`);

const work = mkdtempSync(path.join(tmpdir(), "admin-schema-"));
try {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", values.package, "--json", "--pack-destination", work], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  const tarball = path.join(work, packed.filename);
  const entries = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");

  // The package ships some versions only; an older one is the closest the app can be typed against.
  const shipped = entries
    .map((entry) => new RegExp(`^${DATA_DIR}/admin_(\\d{4}-\\d{2})\\.json\\.gz$`).exec(entry)?.[1])
    .filter((version) => version !== undefined)
    .sort();
  const chosen = shipped.filter((version) => version <= apiVersion).at(-1);
  if (!chosen) {
    throw new Error(
      `${packed.name}@${packed.version} has no Admin schema at or before ${apiVersion}: ${shipped.join(", ")}`,
    );
  }
  if (chosen !== apiVersion) {
    console.warn(
      `${packed.name}@${packed.version} has no ${apiVersion} Admin schema; using ${chosen}, the newest before it`,
    );
  }

  const source = `${DATA_DIR}/admin_${chosen}.json.gz`;
  execFileSync("tar", ["-xzf", tarball, "-C", work, source, "package/LICENSE"]);
  const gzipped = readFileSync(path.join(work, source));
  const next = buildClientSchema(parseIntrospection(gzipped));

  const target = schemaFileOf(chosen);
  const previousVersion = committedSchemaVersions().at(-1);
  if (previousVersion) {
    const previous = buildClientSchema(
      parseIntrospection(readFileSync(schemaFileOf(previousVersion))),
    );
    const changes = [
      ...findBreakingChanges(previous, next).map((change) => `breaking: ${change.description}`),
      ...findDangerousChanges(previous, next).map((change) => `dangerous: ${change.description}`),
    ];
    console.log(
      `Admin schema ${previousVersion} -> ${chosen}: ${changes.length} breaking or dangerous changes`,
    );
    for (const change of changes.slice(0, 50)) console.log(`  ${change}`);
    if (changes.length > 50) console.log(`  ... and ${changes.length - 50} more`);
    for (const version of committedSchemaVersions()) {
      if (version !== chosen) {
        unlinkSync(schemaFileOf(version));
        rmSync(path.join(SCHEMA_DIR, `admin-${version}.source.json`), { force: true });
      }
    }
  }

  writeFileSync(target, gzipped);
  writeFileSync(path.join(SCHEMA_DIR, "LICENSE"), readFileSync(path.join(work, "package/LICENSE")));
  const provenance = {
    apiVersion: chosen,
    package: packed.name,
    version: packed.version,
    license: "ISC",
    tarballIntegrity: packed.integrity,
    file: source.replace(/^package\//, ""),
    sha256: createHash("sha256").update(gzipped).digest("hex"),
  };
  writeFileSync(
    path.join(SCHEMA_DIR, `admin-${chosen}.source.json`),
    `${JSON.stringify(provenance, null, 2)}\n`,
  );
  console.log(
    `Wrote ${path.relative(REPO_ROOT, target)} from ${packed.name}@${packed.version} (${gzipped.length} bytes)`,
  );
  console.log("Next: npm run graphql:codegen && npm run graphql:check");
} finally {
  rmSync(work, { recursive: true, force: true });
}
