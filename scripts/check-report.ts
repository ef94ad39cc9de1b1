/**
 * `node dist/scripts/check-report.js <out/TIMESTAMP/report.html> [--screenshot file.png] [--size WxH]`:
 * renders a main-job report in headless Chromium and checks that every image decoded and every
 * plot has data (src/app/checkReport.ts). Exit code 0 when it passes, 1 otherwise.
 */
import { checkReport } from "../src/app/checkReport";

async function main(argv: string[]): Promise<number> {
  let file: string | undefined;
  let screenshot: string | undefined;
  let size: [number, number] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--screenshot") screenshot = argv[++i];
    else if (a === "--size") {
      const m = /^(\d+)x(\d+)$/.exec(argv[++i] ?? "");
      if (m === null) throw new Error(`--size expects WxH, e.g. 1600x4000`);
      size = [Number(m[1]), Number(m[2])];
    } else if (file === undefined) file = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (file === undefined) {
    process.stderr.write("usage: check-report <report.html> [--screenshot out.png] [--size WxH]\n");
    return 2;
  }
  const v = await checkReport(file, { screenshot, windowSize: size });
  const plots = v.check.plots.map((p) => `${p.name}(${p.points})`).join(", ");
  process.stdout.write(`images: ${v.check.images.length} (${v.check.images.filter((i) => i.naturalWidth > 0).length} decoded)\nplots: ${plots}\n`);
  for (const p of v.problems) process.stdout.write(`PROBLEM: ${p}\n`);
  process.stdout.write(v.ok ? "report OK\n" : "report has problems\n");
  return v.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`check-report: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
