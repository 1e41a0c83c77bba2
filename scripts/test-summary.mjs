import { readFileSync } from "node:fs";

// One plain closing line for the whole suite, summed over the four vitest projects.
let passed = 0;
let failed = 0;
let skipped = 0;
for (const project of ["unit", "sqlite", "postgresql", "browser"]) {
  const report = JSON.parse(readFileSync(`test/artifacts/vitest-${project}.json`, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
