// Thirty-fifth session: the strike lists of an `eval --harness --attribute-strikes` output, per row and condition:
// { row: { nominal|perturbed: { seeds, struck: Set<seed> } } }. Read by test-rule-check.sh and harness-effect-paired.sh.
// rowRates (thirty-eighth session): each row's table line per condition, as printed (read by fresh-targets.sh and
// fresh-climb-woods.sh): { nominal|perturbed: { row: { collisions, collisionsCi, success, successCi, timeouts } } }.
// targetsLine and pairedEffect (thirty-ninth session): issue 13's collision targets for one condition and the
// harness's own effect ON / OFF, as fresh-targets.sh, harness-effect-paired.sh and fresh-pooled.sh print them.
// strikeDetails (thirty-ninth session; strikeLists is read from it): each strike's line, parsed (read by
// strike-manoeuvres.js): { row: { nominal|perturbed: { seeds, strikes: [{ seed, kind, when, flaggedShare, manoeuvres }] } } }.
const fs = require("fs");

function strikeLists(file) {
  const out = {};
  for (const [row, conds] of Object.entries(strikeDetails(file))) {
    for (const [cond, { seeds, strikes }] of Object.entries(conds)) (out[row] ??= {})[cond] = { seeds, struck: new Set(strikes.map((s) => s.seed)) };
  }
  return out;
}

function rowRates(file) {
  const out = {};
  let cond;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const head = /^(nominal|perturbed): (\d+) test seeds/.exec(line);
    if (head) cond = head[1];
    const r = /^\| (\w+) \| ([\d.]+) % (\[[^\]]+\]) \| ([\d.]+) % (\[[^\]]+\]) \| ([\d.]+) %/.exec(line);
    if (r && cond) (out[cond] ??= {})[r[1]] = { collisions: r[2], collisionsCi: r[3], success: r[4], successCi: r[5], timeouts: r[6] };
  }
  return out;
}

function strikeDetails(file) {
  const out = {};
  let cond, row, seeds;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const head = /^(nominal|perturbed): (\d+) /.exec(line);
    if (head) { cond = head[1]; seeds = Number(head[2]); row = undefined; }
    const r = /^(\w+): what the planner saw in the 3 s before each/.exec(line);
    if (r && cond) { row = r[1]; ((out[row] ??= {})[cond] = { seeds, strikes: [] }); }
    const s = /^- seed (\d+): (wire|branch) at /.exec(line);
    if (s && row && cond) {
      const when = /^- seed \d+: \w+ at [\d.]+ s, ([^;]+);/.exec(line);
      const share = /its cells flagged (\d+) %/.exec(line);
      const moves = /manoeuvres ([a-z]*)(;|$)/.exec(line);
      out[row][cond].strikes.push({
        seed: Number(s[1]), kind: s[2], when: when ? when[1] : "",
        flaggedShare: share ? Number(share[1]) : NaN, manoeuvres: moves ? moves[1] : "",
      });
    }
  }
  return out;
}

/** `cond: ON x % against <= cap %: ...; against <= 1/3 of BC (y %): ...` for collision rates `on`, `bc` in %. */
function targetsLine(cond, on, bc, cap) {
  const verdict = (limit) => (on <= limit ? "met" : `missed by ${(on - limit).toFixed(1)} points`);
  return `${cond}: ON ${on.toFixed(1)} % against <= ${cap} %: ${verdict(cap)}; against <= 1/3 of BC (${(bc / 3).toFixed(1)} %): ${verdict(bc / 3)}`;
}

/** Flights struck only ON / only OFF (sets of seeds), McNemar's exact p and the harness's share (OFF - ON) / (BC - ON), as text. */
function pairedEffect(on, off, bcStruck) {
  const { mcnemarExactP } = require("../../dist/src/harness/eval/harnessRows");
  const onlyOn = [...on].filter((s) => !off.has(s)).length, onlyOff = [...off].filter((s) => !on.has(s)).length;
  const share = (off.size - on.size) / (bcStruck - on.size);
  return `only ON ${onlyOn}, only OFF ${onlyOff}; McNemar exact p = ${mcnemarExactP(onlyOn, onlyOff).toFixed(3)}; harness share of the gain over BC ${(100 * share).toFixed(0)} %`;
}

module.exports = { strikeLists, rowRates, strikeDetails, targetsLine, pairedEffect };
