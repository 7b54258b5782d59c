// The slowest test files of a vitest run, as a Markdown table (docs/testing.md).
// Usage: npx vitest run --reporter=default --reporter=json --outputFile=vitest.json
//        node scripts/slowest-tests.mjs vitest.json [count]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, count = '15'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/slowest-tests.mjs <vitest json report> [count]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const files = report.testResults
  .map((result) => ({
    path: relative(process.cwd(), result.name),
    tests: result.assertionResults.length,
    seconds: (result.endTime - result.startTime) / 1000,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, f) => sum + f.seconds, 0);
console.log('| file | tests | seconds |');
console.log('| --- | ---: | ---: |');
for (const f of files.slice(0, Number(count)))
  console.log(`| \`${f.path}\` | ${f.tests} | ${f.seconds.toFixed(1)} |`);
console.log(`\n${files.length} files, ${report.numTotalTests} tests, ${total.toFixed(0)} s of files in all`);
