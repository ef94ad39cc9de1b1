/**
 * `npm run bench`: runs every benchmark suite in one process and prints its table. Targets are
 * checked here (as ratios against a reference measured in the same run), never in tests.
 */
import { SUITES } from "./suites";

async function run(): Promise<void> {
  const only = process.argv.slice(2);
  for (const suite of SUITES) {
    if (only.length > 0 && !only.includes(suite.name)) continue;
    process.stdout.write(`\n== ${suite.name} ==\n`);
    await suite.run((line) => process.stdout.write(`${line}\n`));
  }
}

run().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
