// Prints one closing line for the whole run: "Tests: N passed, N failed, N skipped".
// Usage: summarize-tests.mjs <report.json>:<exit status> ...
// A suite that failed outside any test (a hook, an import, an unhandled error) counts as a
// failure too, and a run that exited non-zero is never summarised as all green.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
for (const arg of process.argv.slice(2)) {
  const at = arg.lastIndexOf(':');
  const file = at > 0 ? arg.slice(0, at) : arg;
  const status = at > 0 ? Number(arg.slice(at + 1)) : 0;
  if (!existsSync(file)) {
    if (status !== 0) {
      failed += 1;
      problems.push(`${file}: no report (exit status ${status})`);
    }
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  const failedTests = report.numFailedTests ?? 0;
  failed += failedTests;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const brokenSuites = (report.testResults ?? []).filter(
    (suite) =>
      suite.status === 'failed' &&
      !(suite.assertionResults ?? []).some((test) => test.status === 'failed'),
  );
  for (const suite of brokenSuites) {
    failed += 1;
    problems.push(`${suite.name}: failed outside its tests (${firstLine(suite.message)})`);
  }
  if (status !== 0 && failedTests === 0 && brokenSuites.length === 0) {
    failed += 1;
    problems.push(`${file}: exit status ${status} with no failed test (an unhandled error?)`);
  }
}
for (const problem of problems) console.log(problem);
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

function firstLine(text) {
  return String(text ?? 'no message')
    .split('\n')[0]
    .slice(0, 200);
}
