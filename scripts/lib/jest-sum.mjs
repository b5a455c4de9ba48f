#!/usr/bin/env node
// Prints the summary of a scripts/test run and exits non-zero when anything failed.
//
//   node scripts/lib/jest-sum.mjs check:NAME:EXIT_CODE ... tier:NAME:EXIT_CODE:JSON_PATH ...
//
// A check (typecheck, lint, proto-check) that failed counts as one failed test, so a
// broken build never reports "0 failed". A tier counts the tests in Jest's --json
// report; a suite that failed to run counts as one failed test, a tier without a
// report counts as one failed, and a tier that exited non-zero with no failure in
// its report counts as one failed. The last line printed is the total:
// "N passed, N failed" plus ", N skipped" when any were skipped.
import { existsSync, readFileSync } from 'node:fs';

const out = (line) => process.stdout.write(`${line}\n`);
const pad = (s) => s.padEnd(12);

let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];

/** @param {string} name @param {number} code @param {string} path */
function tier(name, code, path) {
  if (!existsSync(path)) {
    failed += 1;
    lines.push(`${pad(name)}FAILED: no report ${path} (jest exited ${code})`);
    return;
  }
  let report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    failed += 1;
    lines.push(`${pad(name)}FAILED: unreadable report ${path}: ${err.message}`);
    return;
  }
  const p = report.numPassedTests ?? 0;
  const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  let f = report.numFailedTests ?? 0;
  const notes = [];
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((a) => a.status === 'failed').length;
    if (suite.status === 'failed' && failedTests === 0) {
      f += 1;
      notes.push(`suite failed to run: ${suite.name}`);
    }
  }
  if (code !== 0 && f === 0) {
    f += 1;
    notes.push(`jest exited ${code}`);
  }
  passed += p;
  failed += f;
  skipped += s;
  const suites = report.numTotalTestSuites ?? 0;
  lines.push(`${pad(name)}${p} passed, ${f} failed, ${s} skipped (${suites} suites)`);
  for (const note of notes) lines.push(`${pad('')}  ${note}`);
}

for (const arg of process.argv.slice(2)) {
  const [kind, name, codeText, ...rest] = arg.split(':');
  const code = Number(codeText);
  if (!name || !Number.isInteger(code)) {
    console.error(`jest-sum: bad argument ${arg}`);
    process.exit(2);
  }
  if (kind === 'check') {
    if (code !== 0) failed += 1;
    lines.push(`${pad(name)}${code === 0 ? 'ok' : `FAILED (exit ${code})`}`);
  } else if (kind === 'tier') {
    tier(name, code, rest.join(':'));
  } else {
    console.error(`jest-sum: bad argument ${arg}`);
    process.exit(2);
  }
}

out('[hearth] summary');
for (const line of lines) out(`[hearth]   ${line}`);
out(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
