// The credit accounting of synchronous requests alone, outside the server: each request reserves
// its price, then settles for less (as a chat completion does), 16 at a time, on SQLite, for a
// token with a balance; the CPU time per request over 50 000 requests after 20 000 to warm up.
// Several builds side by side: each tree's dist/ runs in a child process of its own, the trees
// taking turns for --rounds rounds, so that background load falls on all of them alike.
// Usage: node bench/credits.mjs [--trees .,/tmp/before] [--rounds 3]
// (a tree other than this one needs its own `npm run build`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, saveReport } from './common.mjs';

const CONCURRENT = 16;
const WARM_UP = 20_000;
const MEASURED = 50_000;
const HOLD = 100;
const COST = 37;

const { values } = parseArgs({
  options: {
    trees: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});

if (values.child) {
  // One tree, one run: prints its CPU µs per request.
  const tree = resolve(values.child);
  const { openDatabase } = await import(join(tree, 'dist/store/database.js'));
  const { Credits } = await import(join(tree, 'dist/accounts/credits.js'));
  const { Tokens } = await import(join(tree, 'dist/accounts/tokens.js'));
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-credits-'));
  // openDatabase brings the schema up to date.
  const db = await openDatabase(`sqlite:${join(dir, 'credits.db')}`);
  const { token } = await new Tokens(db).create({ name: 'bench', credits: 1e12 });
  const credits = new Credits(db);
  let trace = 0;
  const request = async () => {
    const reservation = await credits.reserve(token, HOLD, `bench-${trace++}`);
    await reservation.settle(COST);
  };
  const run = async (total) => {
    for (let i = 0; i < total; i += CONCURRENT)
      await Promise.all(Array.from({ length: CONCURRENT }, request));
  };
  await run(WARM_UP);
  const before = process.cpuUsage();
  await run(MEASURED);
  const used = process.cpuUsage(before);
  const balance = await db
    .selectFrom('tokens')
    .select('credits')
    .where('id', '=', token.id)
    .executeTakeFirst();
  if (Number(balance.credits) !== 1e12 - (WARM_UP + MEASURED) * COST) throw new Error('the balance is wrong');
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ cpu_us: (used.user + used.system) / MEASURED }));
  process.exit(0);
}

const trees = values.trees.split(',');
const rounds = Number(values.rounds);
const samples = trees.map(() => []);
for (let round = 1; round <= rounds; round += 1) {
  for (const [index, tree] of trees.entries()) {
    const out = execFileSync(process.execPath, [process.argv[1], '--child', tree], { encoding: 'utf8' });
    const { cpu_us } = JSON.parse(out.trim().split('\n').at(-1));
    samples[index].push(cpu_us);
    console.log(`round ${round}: ${tree} ${cpu_us.toFixed(1)} µs CPU per request`);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const rows = trees.map((tree, index) => ({
  tree: resolve(tree),
  cpu_us: Number(median(samples[index]).toFixed(1)),
}));
console.log('\ntree                          CPU µs/request   × first');
for (const row of rows)
  console.log(
    `${row.tree.padEnd(30)}${String(row.cpu_us).padStart(14)}${(row.cpu_us / rows[0].cpu_us).toFixed(2).padStart(10)}`,
  );
saveReport('credits', {
  benchmark: 'credits',
  date: new Date().toISOString(),
  machine: machine(),
  settings: { concurrent: CONCURRENT, warm_up: WARM_UP, measured: MEASURED, hold: HOLD, cost: COST, rounds },
  rows,
});
