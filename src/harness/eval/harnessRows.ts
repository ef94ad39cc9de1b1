/**
 * The rows of issue 13 ("What it must show"): the planner flying on a student detector with or
 * without the spatial harness's correction, every row on the same held-out seeds, nominal and
 * perturbed:
 *   BC student | BC student + harness (student frozen) | co-evolved student + harness |
 *   co-evolved student, harness OFF
 * Per row: wire/branch collisions and success with 95 % Wilson intervals, and the wire AP of the
 * cells the planner actually read (corrected where the harness is ON) on the frames the flights
 * visited: every `apEvery`-th control step is rendered with its ground truth; "approach" frames
 * are those with at least one near-threat cell (a visible structure within 12 m or 3 s).
 * Paired comparison of two rows with the same student (harness ON vs OFF): every seed whose
 * outcome differs, the first control step where the two arms chose different manoeuvres with a
 * frame-by-frame trace around it, and McNemar's exact test on the discordant pairs.
 */
import { ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { DELTA_NORM_MAX, DELTA_RUNAWAY } from "../correction/constants";
import { makeNavigation, type DroneEnvironment, type EnvironmentFactory } from "../data/DroneEnvironment";
import { expertActionName } from "../data/ExpertPilot";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import { STATE_DIM } from "../models/stateVector";
import type { Teacher } from "../models/Teacher";
import { DETECTOR_CELL_PX } from "../runtime/DetectorRuntime";
import type { SpatialHarnessOptions, SpatialStepInfo } from "../runtime/SpatialHarnessRuntime";
import type { SpatialHarness, SpatialHarnessWeights } from "../spatial/SpatialHarness";
import { cellLabelsFromMask, nearThreatCells } from "./CellLabels";
import { flightRates, formatInterval, formatPercent, formatSeedRange, wilsonInterval, type FlightOutcome, type FlightRates } from "./FlightMetrics";
import { percentile } from "./Percentiles";
import { PlannerPilot, TRUE_WIRE_RANGE_M, trueWireSide, type ActionFormulaCounts, type CommitEvent, type CommitSide, type HarnessTarget, type LineFill, type TruthMix } from "./PlannerPilot";
import { DEFAULT_STRIKE_OPTIONS, SightRecorder, attributeStrike, formatStrikeActions, formatStrikeCounts, formatStrikeVertical, summarizeSights, summarizeStrikeVerticals, type StepSight, type StrikeAttribution } from "./strikeAttribution";
import { avoidedStrikes, pairedDz, summarizeCrossings, wireCrossings, wireStrike, type AvoidedStrike, type CrossingFlight, type FlightPath, type WireCrossing } from "./wireCrossings";
import { ThinObstacleAp, type ThinObstacleApColumns, type ThinObstacleApReport } from "./ThinObstacleAp";
import { DEFAULT_PLANNER_OPTIONS, type PlannerOptions } from "../../control/LocalPlanner";

export type HarnessArm = {
  name: string;
  detector: Teacher;
  harness?: { model: SpatialHarness | SpatialHarnessWeights; apply: boolean; options?: Partial<SpatialHarnessOptions>; target?: HarnessTarget; riskHold?: number };
  /** Mends one kind of the grid's errors from the truth (an upper bound; PlannerPilot TruthMix). */
  truthMix?: TruthMix;
  /** Gap filling along lines of the planner's grid (PlannerPilot LineFill). */
  lineFill?: LineFill;
  /** The vertical commitment's side from the world's wires (a bound; PlannerPilot CommitSide). */
  commitSide?: CommitSide;
};

/** One control step of a flight, for the paired traces; wireEvidence / gateClosed only with a wire gate (SpatialHarnessOptions.wireGate). */
/**
 * `commit`: the planner's vertical commitment fixed a side at this decision (the decision's action), by the wire
 * cells' height, by the world's wires (ArmFiles commitSide) or by the planner's own choice; `commitTruth`
 * the side of the nearest conductor ahead by its true height there (PlannerPilot trueWireSide; "none": no conductor
 * within TRUE_WIRE_RANGE_M of the heading line, or no wire truth in the environment); `commitExpert` what the expert (privileged state) did at the
 * first decision of that commitment where the threat in its corridor was a wire: its climb or descend, or "none"
 * (no such decision before the commitment ended, or the expert neither climbed nor descended there); `turned`: the
 * decision was turned to the side held (PlannerOptions.verticalCommit; with CommitSide "truth-each", which holds
 * nothing, every decision where the truth is known is a side fixed, and `turned` marks those where it was not the
 * planner's own); `released`: the decision would have been turned but the drone had stalled (PlannerOptions.verticalCommitStall_s); `arrival`: the final approach decided (PlannerOptions.arrivalRadius_m); `goal_m` the horizontal distance to the goal (m, the navigation's) at the decision.
 */
export type StepTrace = { step: number; time_s: number; action: number; maxThreat: number; maxRisk: number; maxDelta: number; lambda: number; clipped?: number; wireEvidence?: number; gateClosed?: 1; sight?: StepSight; commit?: "wire" | "truth" | "choice"; commitExpert?: "climb" | "descend" | "none"; commitTruth?: "climb" | "descend" | "none"; turned?: 1; released?: 1; wireSeen?: 1; arrival?: 1; scan?: 1; climb?: 1; goal_m?: number };

/** `crossings`: how the flight passed each wire conductor, and the strike that ended it (`wireCrossings`, wireCrossings.ts). */
export type ArmFlight = { outcome: FlightOutcome; trace: StepTrace[]; crossings?: WireCrossing[] };

export type HarnessRow = {
  name: string;
  rates: FlightRates;
  success95: [number, number];
  /** Wire AP of the cells the planner read: all recorded frames, approach frames. */
  apAll: ThinObstacleApReport;
  apApproach: ThinObstacleApReport;
  frames: { all: number; approach: number };
  flights: ArmFlight[];
  /** The literal action-logit formula over every decision of the row (rows with the "actions" target). */
  actionFormula?: ActionFormulaCounts;
  /** What the planner saw before each wire/branch strike (`attributeStrikes`). */
  strikes?: StrikeAttribution[];
};

export type PairedComparison = {
  on: string;
  off: string;
  /** Seeds with a wire/branch collision in one arm only. */
  onOnlyCollisions: number[];
  offOnlyCollisions: number[];
  /** McNemar's exact two-sided p-value on the discordant collision pairs. */
  mcnemarP: number;
  /** Every seed whose outcome differs, with the first differing decision and the steps around it. */
  differing: { seed: number; on: FlightOutcome; off: FlightOutcome; firstDifferentStep: number | undefined; window: { on: StepTrace[]; off: StepTrace[] } }[];
  /** Flights where the arms chose a different manoeuvre at least once. */
  flightsWithDifferentDecisions: number;
  /**
   * With crossings recorded (`wireCrossings`): how ON passed the conductors OFF struck, how OFF passed
   * those ON struck, and ON's altitude minus OFF's over every conductor both crossed.
   */
  crossings?: { avoidedByOn: AvoidedStrike[]; avoidedByOff: AvoidedStrike[]; dzOnMinusOff: number[] };
};

export type HarnessEvalOptions = {
  split: Split;
  splitOf: SplitOf;
  factory: EnvironmentFactory;
  flights: number;
  firstSeed?: number;
  conditions?: readonly ("nominal" | "perturbed")[];
  planner?: Partial<PlannerOptions>;
  /** Render the ground truth every n-th control step for the AP. Default 4 (1 s at 4 Hz). */
  apEvery?: number;
  /** Render the ground truth at every step and attribute each wire/branch strike (strikeAttribution.ts). */
  attributeStrikes?: boolean;
  /** Record the drone's true path and how it passed every wire conductor (wireCrossings.ts); needs an environment with truePosition_m and wireGeometry. */
  wireCrossings?: boolean;
  /** Pairs of arm names (ON, OFF) to compare. */
  pairs?: readonly [string, string][];
  progress?: (line: string) => void;
};

export type HarnessEvalReport = {
  split: Split;
  conditions: { condition: "nominal" | "perturbed"; seeds: number[]; rows: HarnessRow[]; pairs: PairedComparison[] }[];
};

const isThinCollision = (o: FlightOutcome): boolean => o.type === "collision" && (o.obstacle === "wire" || o.obstacle === "branch");

/** Two-sided exact McNemar test: binomial(b + c, 1/2) probability of a split at least as uneven as (b, c). */
export function mcnemarExactP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let logC = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

type ArmRecorders = { apEvery: number; apAll: ThinObstacleAp; apApproach: ThinObstacleAp; frames: { all: number; approach: number }; formula: ActionFormulaCounts; sight?: SightRecorder; crossings?: boolean };

/** The true path of a flight (wireCrossings): one sample per control step, then the final position. */
class PathRecorder {
  readonly path: FlightPath = { time_s: [], x: [], y: [], z: [] };
  private readonly p = new Float64Array(3);
  private readonly truePosition: (out: Float64Array) => void;

  constructor(private readonly env: ReturnType<EnvironmentFactory>) {
    if (env.truePosition_m === undefined || env.wireGeometry === undefined) throw new RangeError(`wire crossings need an environment with truePosition_m and wireGeometry (seed ${env.seed})`);
    this.truePosition = env.truePosition_m.bind(env);
  }

  sample(): void {
    this.truePosition(this.p);
    this.path.time_s.push(this.env.time_s);
    this.path.x.push(this.p[0]!);
    this.path.y.push(this.p[1]!);
    this.path.z.push(this.p[2]!);
  }

  crossings(trace: readonly StepTrace[], outcome: FlightOutcome): WireCrossing[] {
    this.sample();
    const wires = this.env.wireGeometry!();
    const actions = trace.map((s) => s.action);
    const out = wireCrossings(this.path, wires, actions);
    if (outcome.type === "collision" && outcome.obstacle === "wire") {
      const s = wireStrike(this.path, wires, actions);
      if (s !== undefined) out.push(s);
    }
    return out;
  }
}

function flyArm(arm: HarnessArm, env: ReturnType<EnvironmentFactory>, planner: Partial<PlannerOptions> | undefined, rec: ArmRecorders): ArmFlight {
  const { apEvery, apAll, apApproach, frames, formula } = rec;
  const pilot = new PlannerPilot({ type: "detector", detector: arm.detector, ...(arm.harness === undefined ? {} : { harness: arm.harness }), ...(arm.truthMix === undefined ? {} : { truthMix: arm.truthMix }), ...(arm.lineFill === undefined ? {} : { lineFill: arm.lineFill }), ...(arm.commitSide === undefined ? {} : { commitSide: arm.commitSide }) }, planner);
  const { width, height } = env;
  const grid = { width, height, cell_px: DETECTOR_CELL_PX };
  const rgb = new Uint8Array(width * height * 3);
  const mask = new Uint8Array(width * height);
  const truth = { visibleMask: new Uint8Array(width * height), depth: new Float32Array(width * height) };
  const state = new Float32Array(STATE_DIM);
  const trace: StepTrace[] = [];
  // The vertical commitment's true side (StepTrace.commitTruth), read only where a side is fixed.
  const sideOptions = { ...DEFAULT_PLANNER_OPTIONS, ...planner };
  const navigation = makeNavigation();
  const path = rec.crossings === true ? new PathRecorder(env) : undefined;
  let commitExpert: CommitExpertRecorder | undefined;
  const done = (outcome: FlightOutcome): ArmFlight => (path === undefined ? { outcome, trace } : { outcome, trace, crossings: path.crossings(trace, outcome) });
  pilot.reset();
  for (let step = 0; step < 100000; step++) {
    path?.sample();
    const record = step % apEvery === 0;
    // The oracle correction reads every frame's ground truth; other arms only every apEvery-th.
    if (record || pilot.needsTruth || rec.sight !== undefined) env.render(rgb, mask, truth);
    else env.render(rgb);
    env.sensorState(state);
    const action = pilot.act(rgb, state, env, pilot.needsTruth ? { mask, ...truth } : undefined);
    // The navigation after the decision, read once: the trace's goal_m and the true side of a side fixed.
    const here = env.navigation(navigation);
    const commit = commitTrace(pilot.lastCommit, () => trueWireSide(env, here, sideOptions));
    const h = pilot.lastHarnessStep;
    const threat = pilot.lastThreat;
    let maxThreat = 0;
    for (const t of threat) maxThreat = Math.max(maxThreat, t);
    const sight = rec.sight?.sight(truth.visibleMask, truth.depth, threat);
    const entry: StepTrace = { step, time_s: env.time_s, action, maxThreat, maxRisk: h?.maxRisk ?? 0, maxDelta: pilot.lastAppliedDelta, lambda: h?.lambda ?? 0, ...(h !== undefined && h.clippedRegions > 0 ? { clipped: h.clippedRegions } : {}), ...gateTrace(h), ...(sight === undefined ? {} : { sight }), ...commit, ...(pilot.lastArrival ? { arrival: 1 as const } : {}), ...(pilot.lastScan ? { scan: 1 as const } : {}), ...(pilot.lastClimb ? { climb: 1 as const } : {}), goal_m: Math.round(here.goalDistance_m * 100) / 100 };
    trace.push(entry);
    if (pilot.verticalCommitSide !== -1 || entry.commit !== undefined) (commitExpert ??= new CommitExpertRecorder(env)).record(entry, pilot.verticalCommitSide);
    if (record) {
      // The class probabilities the planner's grid came from: corrected when the harness corrects the detections.
      const probs = pilot.plannerClassProbs;
      if (probs !== undefined && probs.length === (width / DETECTOR_CELL_PX) * (height / DETECTOR_CELL_PX) * NUM_DETECTION_CLASSES) {
        const labels = cellLabelsFromMask(truth.visibleMask, grid);
        const near = nearThreatCells(truth.visibleMask, truth.depth, grid, Math.max(0, pilot.harnessRuntime?.rates[2] ?? 0));
        apAll.add(probs, labels);
        frames.all++;
        if (near.some((v) => v === 1)) {
          apApproach.add(probs, labels);
          frames.approach++;
        }
      }
    }
    const ev = env.step(action, pilot.forward_m_s);
    if (ev.type === "running") continue;
    addFormulaCounts(formula, pilot.actionFormulaCounts);
    const outcome: FlightOutcome = ev.type === "collision" ? { type: "collision", seed: env.seed, time_s: env.time_s, obstacle: ev.obstacle } : { type: ev.type, seed: env.seed, time_s: env.time_s };
    return done(outcome);
  }
  addFormulaCounts(formula, pilot.actionFormulaCounts);
  return done({ type: "timeout", seed: env.seed, time_s: env.time_s });
}

/** The report's lines on a row's strikes (`attributeStrikes`): none without them. */
function strikeLines(r: HarnessRow): string[] {
  if (r.strikes === undefined) return [];
  const lines: string[] = [];
  lines.push("");
  lines.push(`${r.name}: what the planner saw in the 3 s before each wire/branch strike (near-threat cells of the struck class; flagged = its threat >= 0.5; manoeuvres c cruise, s slow, h hover, u climb, d descend, l/r yaw): ${formatStrikeCounts(r.strikes)}`);
  const { struck, notStruck } = summarizeSights(r.flights);
  const g = (x: typeof struck): string => `${x.flights} flights, ${x.nearWireFrames} frames with a near wire: ${(100 * x.wireCoverage).toFixed(0)} % of its cells flagged, ${x.flaggedElsewhere.toFixed(1)} cells flagged elsewhere per frame`;
  lines.push(`  per-flight means, flights that struck a wire: ${g(struck)}; the others: ${g(notStruck)}`);
  for (const s of r.strikes) {
    lines.push(`- seed ${s.seed}: ${s.obstacle} at ${s.time_s.toFixed(2)} s, ${s.kind}; in view ${s.framesInView} of ${s.frames} frames, max threat ${s.maxThreat.toFixed(2)}, its cells flagged ${(100 * s.coverage).toFixed(0)} %, ${s.flaggedElsewhere.toFixed(1)} cells flagged elsewhere per frame${s.firstFlagged_s === undefined ? "" : `, first flagged ${s.firstFlagged_s.toFixed(2)} s before`}; manoeuvres ${formatStrikeActions(s.actions)}${s.gateClosed === undefined ? "" : `; wire gate closed in ${s.gateClosed} of ${s.frames} frames`}${s.vertical === undefined ? "" : `; ${formatStrikeVertical(s.vertical)}`}`);
  }
  const kv = summarizeStrikeVerticals(r.strikes);
  if (kv !== undefined) lines.push(`  the vertical commitment before the ${kv.strikes} strikes: ${kv.noVertical} with no climb or descend in the 3 s; the last climb or descend of the others: no wire evidence ${kv.lastNoEvidence}, under the level ${kv.lastBelowLevel}, side fixed ${kv.lastFixed} (true side known at ${kv.lastTruthKnown}, flown to it ${kv.lastTrueSide}), turned ${kv.lastTurned}; over all ${kv.decisions} climb/descend decisions of the windows: true side known at ${kv.truthKnown}, flown to it ${kv.trueSide}`);
  return lines;
}

/** The StepTrace fields of one decision's vertical commitment (PlannerPilot.lastCommit); the true side is read only where a side was fixed. */
function commitTrace(event: Readonly<CommitEvent>, truth: () => number | undefined): Pick<StepTrace, "commit" | "commitExpert" | "commitTruth" | "turned" | "released" | "wireSeen"> {
  const side = (a: number | undefined): "climb" | "descend" | "none" => (a === undefined ? "none" : ACTIONS[a] === "descend" ? "descend" : "climb");
  const fixed = event.fixed === undefined ? {} : { commit: event.fixed, commitExpert: "none" as const, commitTruth: side(truth()) };
  return { ...fixed, ...(event.turned ? { turned: 1 as const } : {}), ...(event.released ? { released: 1 as const } : {}), ...(event.evidence ? { wireSeen: 1 as const } : {}) };
}

/**
 * StepTrace.commitExpert: while the pilot holds a side, the expert's verdict on the wire is read at every decision
 * until its corridor holds a wire; the verdict goes to the decision that fixed the side. A side fixed and not held
 * (CommitSide "each", "truth-each") gets the expert's verdict at that decision only.
 */
class CommitExpertRecorder {
  private open: StepTrace | undefined;

  constructor(private readonly env: DroneEnvironment) {}

  /** After each decision's trace entry is pushed: `side` is the pilot's side held after it (-1: none). */
  record(entry: StepTrace, side: number): void {
    if (entry.commit !== undefined) this.open = entry;
    const once = side === -1 && entry.commit !== undefined;
    if (side === -1 && !once) this.open = undefined;
    if (this.open === undefined) return;
    const obs = this.env.expertObservation();
    if (obs.threat?.kind === "wire") {
      const a = expertActionName(obs);
      this.open.commitExpert = a === "climb" || a === "descend" ? a : "none";
      this.open = undefined;
    }
    if (once) this.open = undefined;
  }
}

function addFormulaCounts(total: ActionFormulaCounts, flight: Readonly<ActionFormulaCounts> | undefined): void {
  if (flight === undefined) return;
  total.decisions += flight.decisions;
  total.changed += flight.changed;
  total.clipped += flight.clipped;
  for (const n of flight.norms) total.norms.push(n);
}

export function comparePaired(on: HarnessRow, off: HarnessRow, window = 3): PairedComparison {
  const onOnly: number[] = [];
  const offOnly: number[] = [];
  const differing: PairedComparison["differing"] = [];
  let withDifferent = 0;
  on.flights.forEach((a, i) => {
    const b = off.flights[i];
    if (b === undefined) return;
    let first: number | undefined;
    for (let k = 0; k < Math.min(a.trace.length, b.trace.length); k++) {
      if (a.trace[k]?.action !== b.trace[k]?.action) {
        first = k;
        break;
      }
    }
    if (first !== undefined) withDifferent++;
    if (isThinCollision(a.outcome) && !isThinCollision(b.outcome)) onOnly.push(a.outcome.seed);
    if (!isThinCollision(a.outcome) && isThinCollision(b.outcome)) offOnly.push(b.outcome.seed);
    if (a.outcome.type !== b.outcome.type || (a.outcome.type === "collision" && b.outcome.type === "collision" && a.outcome.obstacle !== b.outcome.obstacle)) {
      const lo = Math.max(0, (first ?? 0) - window);
      const hi = (first ?? 0) + window + 1;
      differing.push({ seed: a.outcome.seed, on: a.outcome, off: b.outcome, firstDifferentStep: first, window: { on: a.trace.slice(lo, hi), off: b.trace.slice(lo, hi) } });
    }
  });
  const result: PairedComparison = { on: on.name, off: off.name, onOnlyCollisions: onOnly, offOnlyCollisions: offOnly, mcnemarP: mcnemarExactP(onOnly.length, offOnly.length), differing, flightsWithDifferentDecisions: withDifferent };
  if (on.flights.some((f) => f.crossings !== undefined) && off.flights.some((f) => f.crossings !== undefined)) {
    const asCrossing = (f: ArmFlight): CrossingFlight => ({ seed: f.outcome.seed, outcome: formatOutcome(f.outcome), ...(f.crossings === undefined ? {} : { crossings: f.crossings }) });
    const a = on.flights.map(asCrossing);
    const b = off.flights.map(asCrossing);
    result.crossings = { avoidedByOn: avoidedStrikes(b, a), avoidedByOff: avoidedStrikes(a, b), dzOnMinusOff: pairedDz(a, b) };
  }
  return result;
}

function formatOutcome(x: FlightOutcome): string {
  return x.type === "collision" ? `collision (${x.obstacle}) at ${x.time_s.toFixed(2)} s` : `${x.type} at ${x.time_s.toFixed(2)} s`;
}

/** What flying a row needs besides the arm, its seeds and the condition. */
export type RowFlightOptions = Pick<HarnessEvalOptions, "split" | "splitOf" | "factory" | "planner" | "apEvery" | "attributeStrikes" | "wireCrossings">;

/**
 * What one worker flew of a row: its seeds' flights in order and the cells its AP rankings hold
 * (assembleHarnessRow puts the parts of a row back together). Plain data: it crosses a
 * worker_threads message.
 */
export type HarnessRowPart = {
  name: string;
  flights: ArmFlight[];
  apAll: ThinObstacleApColumns;
  apApproach: ThinObstacleApColumns;
  frames: { all: number; approach: number };
  formula: ActionFormulaCounts;
  strikes?: StrikeAttribution[];
};

/**
 * Flies `seeds` of a row (all of them, or one contiguous part of the row's seeds). A new pilot
 * flies each seed, so a flight does not depend on the ones flown before it in the same part.
 */
export function flyHarnessRowPart(arm: HarnessArm, seeds: readonly number[], condition: "nominal" | "perturbed", options: RowFlightOptions): HarnessRowPart {
  const source = new SeedSource(options.split, options.splitOf);
  const apAll = new ThinObstacleAp();
  const apApproach = new ThinObstacleAp();
  const frames = { all: 0, approach: 0 };
  const formula: ActionFormulaCounts = { decisions: 0, changed: 0, norms: [], clipped: 0 };
  let sight: SightRecorder | undefined;
  const flights = seeds.map((s) => {
    const env = options.factory(source.require(s), { perturbed: condition === "perturbed" });
    if (options.attributeStrikes === true) sight ??= new SightRecorder({ width: env.width, height: env.height, cell_px: DETECTOR_CELL_PX });
    return flyArm(arm, env, options.planner, { apEvery: options.apEvery ?? 4, apAll, apApproach, frames, formula, ...(sight === undefined ? {} : { sight }), ...(options.wireCrossings === true ? { crossings: true } : {}) });
  });
  const part: HarnessRowPart = { name: arm.name, flights, apAll: apAll.columns(), apApproach: apApproach.columns(), frames, formula };
  if (options.attributeStrikes === true) {
    const read = { ...DEFAULT_STRIKE_OPTIONS, vertical: (options.planner?.verticalCommit ?? 0) > 0 };
    part.strikes = flights.flatMap((f) => attributeStrike(f.trace, f.outcome, read) ?? []);
  }
  return part;
}

/** A row from its parts, given in seed order: the same row as one part flying all the seeds. */
export function assembleHarnessRow(parts: readonly HarnessRowPart[]): HarnessRow {
  const first = parts[0];
  if (first === undefined) throw new RangeError("assembleHarnessRow: no parts");
  if (parts.some((p) => p.name !== first.name)) throw new RangeError(`assembleHarnessRow: parts of rows ${[...new Set(parts.map((p) => p.name))].join(", ")}, expected one row`);
  const apAll = new ThinObstacleAp();
  const apApproach = new ThinObstacleAp();
  const frames = { all: 0, approach: 0 };
  const formula: ActionFormulaCounts = { decisions: 0, changed: 0, norms: [], clipped: 0 };
  for (const p of parts) {
    apAll.appendColumns(p.apAll);
    apApproach.appendColumns(p.apApproach);
    frames.all += p.frames.all;
    frames.approach += p.frames.approach;
    addFormulaCounts(formula, p.formula);
  }
  const flights = parts.flatMap((p) => p.flights);
  const outcomes = flights.map((f) => f.outcome);
  const goals = outcomes.filter((o) => o.type === "goal").length;
  const row: HarnessRow = { name: first.name, rates: flightRates(outcomes), success95: wilsonInterval(goals, outcomes.length), apAll: apAll.report(), apApproach: apApproach.report(), frames, flights };
  if (parts.some((p) => p.strikes !== undefined)) row.strikes = parts.flatMap((p) => p.strikes ?? []);
  return formula.decisions > 0 ? { ...row, actionFormula: formula } : row;
}

/** Flies one row (arm) over `seeds` in one condition in this thread: outcomes, traces and AP. */
export function flyHarnessRow(arm: HarnessArm, seeds: readonly number[], condition: "nominal" | "perturbed", options: RowFlightOptions): HarnessRow {
  return assembleHarnessRow([flyHarnessRowPart(arm, seeds, condition, options)]);
}

/** Assembles the report from rows flown per condition (in the order of `arms`), with the paired comparisons. */
export function harnessReport(split: Split, seeds: number[], byCondition: { condition: "nominal" | "perturbed"; rows: HarnessRow[] }[], pairs: readonly [string, string][]): HarnessEvalReport {
  return {
    split,
    conditions: byCondition.map(({ condition, rows }) => {
      const byName = new Map(rows.map((r) => [r.name, r]));
      const compared: PairedComparison[] = [];
      for (const [on, off] of pairs) {
        const a = byName.get(on);
        const b = byName.get(off);
        if (a !== undefined && b !== undefined) compared.push(comparePaired(a, b));
      }
      return { condition, seeds, rows, pairs: compared };
    }),
  };
}

/** The held-out seeds of an evaluation (train is refused). */
export function harnessEvalSeeds(options: Pick<HarnessEvalOptions, "split" | "splitOf" | "flights" | "firstSeed">): number[] {
  if (options.split === "train") throw new RangeError('split="train": evaluation reads only held-out seeds ("test", or "val" while developing)');
  return new SeedSource(options.split, options.splitOf).seeds(options.flights, options.firstSeed ?? 0);
}

/** Every row in this thread (tests, small runs); the CLI deals rows to worker threads (harnessRowsParallel.ts). */
export function evaluateHarnessRows(arms: readonly HarnessArm[], options: HarnessEvalOptions): HarnessEvalReport {
  const seeds = harnessEvalSeeds(options);
  const byCondition = (options.conditions ?? ["nominal", "perturbed"]).map((condition) => ({
    condition,
    rows: arms.map((arm) => {
      const row = flyHarnessRow(arm, seeds, condition, options);
      options.progress?.(rowProgress(condition, row, seeds.length, options.split));
      return row;
    }),
  }));
  return harnessReport(options.split, seeds, byCondition, options.pairs ?? []);
}

export function rowProgress(condition: string, row: HarnessRow, seeds: number, split: string): string {
  return `eval --harness [${condition}] ${row.name}: collisions ${(100 * row.rates.collisionRate).toFixed(1)} %, success ${(100 * row.rates.successRate).toFixed(1)} %, wire AP approach ${row.apApproach.wire.toFixed(3)} (${row.frames.approach} frames) over ${seeds} ${split} seeds`;
}

/** The wire gate's part of a step's trace: nothing without a gate. */
function gateTrace(h: SpatialStepInfo | undefined): Pick<StepTrace, "wireEvidence" | "gateClosed"> {
  if (h === undefined || Number.isNaN(h.wireEvidence)) return {};
  return { wireEvidence: h.wireEvidence, ...(h.gateOpen ? {} : { gateClosed: 1 as const }) };
}

/** What the wire gate (SpatialHarnessOptions.wireGate) saw and did over a row's decisions; evidence = the frame's wire cells. */
export type WireGateSummary = { decisions: number; openShare: number; evidenceP10: number; evidenceP50: number; evidenceP90: number };

/** From the rows' traces; undefined when no decision traced a wire gate. */
export function wireGateSummary(flights: readonly ArmFlight[]): WireGateSummary | undefined {
  const steps = flights.flatMap((f) => f.trace.filter((s) => s.wireEvidence !== undefined));
  if (steps.length === 0) return undefined;
  const evidence = steps.map((s) => s.wireEvidence!);
  return {
    decisions: steps.length,
    openShare: steps.filter((s) => s.gateClosed === undefined).length / steps.length,
    evidenceP10: percentile(evidence, 10),
    evidenceP50: percentile(evidence, 50),
    evidenceP90: percentile(evidence, 90),
  };
}

/** Share of a row's decisions that chose each manoeuvre (ACTIONS order). */
export function manoeuvreShares(flights: readonly ArmFlight[]): { decisions: number; shares: number[] } {
  const counts = new Array<number>(ACTIONS.length).fill(0);
  let decisions = 0;
  for (const f of flights) {
    for (const s of f.trace) {
      if (!(s.action >= 0 && s.action < ACTIONS.length)) throw new RangeError(`action ${s.action} at step ${s.step}, expected an index of ACTIONS (0..${ACTIONS.length - 1})`);
      counts[s.action]!++;
      decisions++;
    }
  }
  return { decisions, shares: counts.map((n) => (decisions === 0 ? 0 : n / decisions)) };
}

/** How large the applied correction was over every decision of a row, and what the runaway alarm did to lambda. */
export type CorrectionSummary = {
  decisions: number;
  maxDeltaP50: number;
  maxDeltaP90: number;
  maxDeltaP99: number;
  maxDeltaMax: number;
  /**
   * The largest level a hover rule "max|delta| above the level for `SUSTAINED_DECISIONS` decisions in
   * a row" (config/safety.yaml runaway_delta, runaway_count) would have tripped at in these flights:
   * over every window of that many consecutive decisions of one flight, the largest window minimum.
   */
  sustainedMax: number;
  /** Share of decisions where at least one region's correction was scaled down to the clip. */
  clippedShare: number;
  lambdaP50: number;
  lambdaP10: number;
  /** The runaway level the share below was counted at. */
  runawayLevel: number;
  aboveRunaway: number;
};

/** The safety node's default runaway_count (nodes/safety.ts, config/safety.yaml). */
export const SUSTAINED_DECISIONS = 5;

function sustainedMaximum(series: readonly number[], window: number): number {
  let best = 0;
  for (let i = 0; i + window <= series.length; i++) {
    let m = Infinity;
    for (let k = i; k < i + window; k++) m = Math.min(m, series[k]!);
    best = Math.max(best, m);
  }
  return best;
}

/** From the rows' traces; undefined when no decision applied a correction (OFF rows, rows without a harness). */
export function correctionSummary(flights: readonly ArmFlight[], runawayLevel: number = DELTA_RUNAWAY): CorrectionSummary | undefined {
  const deltas = flights.flatMap((f) => f.trace.map((s) => s.maxDelta));
  if (!deltas.some((d) => d > 0)) return undefined;
  const lambdas = flights.flatMap((f) => f.trace.map((s) => s.lambda));
  return {
    decisions: deltas.length,
    maxDeltaP50: percentile(deltas, 50),
    maxDeltaP90: percentile(deltas, 90),
    maxDeltaP99: percentile(deltas, 99),
    // A loop, not Math.max(...deltas): a long run has more decisions than a call takes arguments.
    maxDeltaMax: deltas.reduce((m, d) => Math.max(m, d), 0),
    sustainedMax: Math.max(...flights.map((f) => sustainedMaximum(f.trace.map((s) => s.maxDelta), SUSTAINED_DECISIONS))),
    clippedShare: flights.reduce((n, f) => n + f.trace.filter((s) => (s.clipped ?? 0) > 0).length, 0) / deltas.length,
    lambdaP50: percentile(lambdas, 50),
    lambdaP10: percentile(lambdas, 10),
    runawayLevel,
    aboveRunaway: deltas.filter((d) => d > runawayLevel).length / deltas.length,
  };
}

const pct = formatPercent;
const ci = formatInterval;
const f3 = (x: number): string => (Number.isNaN(x) ? "NaN" : x.toFixed(3));
const f2 = (x: number): string => (Number.isNaN(x) ? "-" : x.toFixed(2));

/** [side climb, side descend] x [other climb, other descend], as text. */
function sideTable(t: readonly (readonly number[])[]): string {
  return `side climb: ${t[0]![0]} / ${t[0]![1]}, side descend: ${t[1]![0]} / ${t[1]![1]}`;
}

/** The vertical commitment's line of a row (PlannerOptions.verticalCommit), undefined when it fixed no side. */
function commitmentLine(r: HarnessRow): string | undefined {
  const by = { wire: 0, truth: 0, choice: 0 };
  let fixed = 0, turned = 0, released = 0, flights = 0;
  /** Sides fixed where the expert (while held) / the world's wires (when fixed) gave a side: [side climb, side descend] x [its climb, its descend]. */
  const expert = [[0, 0], [0, 0]];
  const truth = [[0, 0], [0, 0]];
  /** Of the sides fixed where the world's wires gave a side, those where the planner's own choice (the action unless turned) was it. */
  let ownRight = 0;
  const row = (a: number): number => (ACTIONS[a] === "climb" ? 0 : 1);
  for (const f of r.flights) {
    let any = false;
    for (const t of f.trace) {
      if (t.commit !== undefined) {
        fixed++;
        any = true;
        by[t.commit]++;
        if (t.commitExpert !== undefined && t.commitExpert !== "none") expert[row(t.action)]![t.commitExpert === "climb" ? 0 : 1]!++;
        if (t.commitTruth !== undefined && t.commitTruth !== "none") {
          truth[row(t.action)]![t.commitTruth === "climb" ? 0 : 1]!++;
          if ((ACTIONS[t.action] === t.commitTruth) !== (t.turned === 1)) ownRight++;
        }
      }
      if (t.turned === 1) turned++;
      if (t.released === 1) released++;
    }
    if (any) flights++;
  }
  if (fixed === 0) return undefined;
  const sum = (t: number[][]): number => t[0]![0]! + t[0]![1]! + t[1]![0]! + t[1]![1]!;
  const agree = (t: number[][]): number => t[0]![0]! + t[1]![1]!;
  return [
    `${r.name}: vertical commitment: ${fixed} sides fixed in ${flights} flights (${by.wire} by the wire cells' height, ${by.truth} by the world's wires, ${by.choice} by the planner's own choice), ${turned} decisions turned to the side held${released > 0 ? `, ${released} left as chosen after a stall (the stall bound)` : ""};`,
    `the true side of the nearest conductor ahead (within ${TRUE_WIRE_RANGE_M} m) known at ${sum(truth)} of the ${fixed}, the side held was it in ${agree(truth)} (${sideTable(truth)} true climb / descend), the planner's own choice in ${ownRight};`,
    `the expert climbed or descended for a wire in its corridor at ${sum(expert)} of them (a side held: at the first decision while held where its corridor held a wire), the side held was its in ${agree(expert)} (${sideTable(expert)} expert climb / descend)`,
  ].join(" ");
}

/** The final approach's and the scan when stuck's lines of a row (the pilot's turns of the planner's decisions), none when neither decided. */
function pilotTurnLines(r: HarnessRow): string[] {
  const out: string[] = [];
  const arrived = r.flights.map((f) => f.trace.filter((t) => t.arrival === 1).length);
  const flights = arrived.filter((n) => n > 0).length;
  if (flights > 0) {
    const goals = r.flights.filter((f, i) => arrived[i]! > 0 && f.outcome.type === "goal").length;
    out.push(`${r.name}: final approach (arrival radius): ${arrived.reduce((a, n) => a + n, 0)} decisions in ${flights} flights, of them ${goals} reached the goal`);
  }
  out.push(...stuckLine(r, (t) => t.scan === 1, "scan when stuck", "decisions"));
  out.push(...stuckLine(r, (t) => t.climb === 1, "climb when stuck", "decisions with the goal's altitude raised"));
  return out;
}

/** The line of a pilot's turn when stuck: its marked decisions, the flights with any, and how those flights ended (none when no flight has one). */
function stuckLine(r: HarnessRow, marked: (t: StepTrace) => boolean, name: string, what: string): string[] {
  const counts = r.flights.map((f) => f.trace.filter(marked).length);
  const flights = counts.filter((n) => n > 0).length;
  if (flights === 0) return [];
  const ended = (type: string): number => r.flights.filter((f, i) => counts[i]! > 0 && f.outcome.type === type).length;
  return [`${r.name}: ${name}: ${counts.reduce((a, n) => a + n, 0)} ${what} in ${flights} flights, of them ${ended("goal")} reached the goal, ${ended("collision")} collided, ${ended("timeout")} timed out`];
}

/** `runawayLevel`: the harness runtime's runaway alarm level the rows flew with (eval --runaway-level). */
export function formatHarnessReport(report: HarnessEvalReport, runawayLevel: number = DELTA_RUNAWAY): string {
  const lines: string[] = [];
  for (const c of report.conditions) {
    lines.push(formatSeedRange(c.condition, c.seeds, report.split));
    lines.push("| row | wire/branch collisions (95 % CI) | success (95 % CI) | timeouts | wire AP all frames | wire AP approach frames | frames (approach) |");
    lines.push("|---|---|---|---|---|---|---|");
    for (const r of c.rows) {
      lines.push(`| ${r.name} | ${pct(r.rates.collisionRate)} ${ci(r.rates.collisionRate95)} | ${pct(r.rates.successRate)} ${ci(r.success95)} | ${pct(r.rates.timeoutRate)} | ${f3(r.apAll.wire)} | ${f3(r.apApproach.wire)} | ${r.frames.all} (${r.frames.approach}) |`);
    }
    for (const r of c.rows) lines.push(...strikeLines(r));
    for (const r of c.rows) {
      const k = r.actionFormula === undefined ? correctionSummary(r.flights, runawayLevel) : undefined;
      if (k === undefined) continue;
      lines.push("");
      lines.push(`${r.name}: applied correction over ${k.decisions} decisions: max|delta| p50 ${f3(k.maxDeltaP50)}, p90 ${f3(k.maxDeltaP90)}, p99 ${f3(k.maxDeltaP99)}, max ${f3(k.maxDeltaMax)}; held for ${SUSTAINED_DECISIONS} decisions in a row up to ${f3(k.sustainedMax)}; a region clipped in ${pct(k.clippedShare)}; ${Number.isFinite(k.runawayLevel) ? `above the runaway level ${k.runawayLevel} in ${pct(k.aboveRunaway)}` : "no runaway alarm"}; lambda p50 ${f3(k.lambdaP50)}, p10 ${f3(k.lambdaP10)}`);
    }
    lines.push("");
    for (const r of c.rows) {
      const m = manoeuvreShares(r.flights);
      lines.push(`${r.name}: manoeuvres over ${m.decisions} decisions (${(m.decisions / Math.max(1, r.flights.length)).toFixed(0)} per flight): ${ACTIONS.map((a, i) => `${a} ${pct(m.shares[i]!)}`).join(", ")}`);
    }
    for (const line of c.rows.map(commitmentLine)) if (line !== undefined) lines.push("", line);
    for (const line of c.rows.flatMap(pilotTurnLines)) lines.push("", line);
    for (const r of c.rows) {
      if (!r.flights.some((f) => f.crossings !== undefined)) continue;
      const k = summarizeCrossings(r.flights);
      const m = (x: number): string => (Number.isNaN(x) ? "-" : `${x >= 0 ? "+" : ""}${x.toFixed(2)}`);
      lines.push("");
      lines.push(`${r.name}: wire crossings (plan view, per conductor): ${k.crossings} in ${k.flights} flights, over ${k.over} (${pct(k.over / Math.max(1, k.crossings))}); dz (drone - conductor) p10 ${m(k.dzP10)}, p50 ${m(k.dzP50)}, p90 ${m(k.dzP90)} m; horizontal speed p50 ${f2(k.speedP50)} m/s; climbing at the crossing ${k.climbingAt}, a climb decided in the 3 s before ${k.climbBefore}; wire strikes ${k.strikes}, dz at the strike p50 ${m(k.strikeDzP50)} m, speed p50 ${f2(k.strikeSpeedP50)} m/s, level (|vz| <= 0.2 m/s) ${k.strikesLevel}, at cruise speed (>= 3.5 m/s) ${k.strikesCruising}`);
    }
    for (const r of c.rows) {
      const g = wireGateSummary(r.flights);
      if (g === undefined) continue;
      lines.push("");
      lines.push(`${r.name}: wire gate open in ${pct(g.openShare)} of ${g.decisions} decisions; cells per frame at the gate's uncorrected wire probability p10 ${g.evidenceP10.toFixed(1)}, p50 ${g.evidenceP50.toFixed(1)}, p90 ${g.evidenceP90.toFixed(1)}`);
    }
    for (const r of c.rows) {
      const f = r.actionFormula;
      if (f === undefined) continue;
      const q = (p: number): string => f3(percentile(f.norms, p));
      lines.push("");
      lines.push(`${r.name}: the literal formula on the planner's action logits (S by finite differences) changed the chosen manoeuvre in ${f.changed} of ${f.decisions} decisions (${pct(f.changed / Math.max(1, f.decisions))}); ||delta||_2 before the clip p50 ${q(50)}, p90 ${q(90)}, max ${q(100)}; clipped to ${DELTA_NORM_MAX} in ${f.clipped}`);
    }
    for (const p of c.pairs) {
      lines.push("");
      lines.push(`paired ${p.on} (ON) vs ${p.off} (OFF): ${p.flightsWithDifferentDecisions} of ${c.seeds.length} flights chose a different manoeuvre at least once; wire/branch collisions only ON: ${p.onOnlyCollisions.length} [${p.onOnlyCollisions.join(", ")}], only OFF: ${p.offOnlyCollisions.length} [${p.offOnlyCollisions.join(", ")}]; McNemar exact p = ${p.mcnemarP.toFixed(3)}`);
      if (p.crossings !== undefined) {
        const dd = p.crossings.dzOnMinusOff;
        const m = (x: number): string => (Number.isNaN(x) ? "-" : `${x >= 0 ? "+" : ""}${x.toFixed(2)}`);
        lines.push(`  conductors both crossed: ${dd.length}, ON higher in ${dd.filter((x) => x > 0).length}; ON dz minus OFF dz p10 ${m(percentile(dd, 10))}, p50 ${m(percentile(dd, 50))}, p90 ${m(percentile(dd, 90))} m`);
        for (const [who, other, list] of [["OFF", "ON", p.crossings.avoidedByOn], ["ON", "OFF", p.crossings.avoidedByOff]] as const) {
          const n = (w: string): number => list.filter((x) => x.way === w).length;
          lines.push(`  wire strikes of ${who} that ${other} avoided: ${list.length}; at the struck conductor ${other} passed over ${n("over")}, under ${n("under")}, did not cross it ${n("not crossed")}`);
          for (const x of list) {
            lines.push(`  - seed ${x.seed}: ${who} struck conductor ${x.object} at ${x.struck.time_s.toFixed(2)} s (dz ${m(x.struck.dz_m)} m, ${f2(x.struck.speed_m_s)} m/s, climbs ${x.struck.climbsBefore} of ${x.struck.decisionsBefore} decisions in the 3 s before); ${other}: ${x.crossing === undefined ? `not crossed, ${x.outcome}` : `${x.way} at ${x.crossing.time_s.toFixed(2)} s (dz ${m(x.crossing.dz_m)} m, ${f2(x.crossing.speed_m_s)} m/s, climbs ${x.crossing.climbsBefore} of ${x.crossing.decisionsBefore}), ${x.outcome}`}`);
          }
        }
      }
      for (const d of p.differing) {
        const o = formatOutcome;
        lines.push(`- seed ${d.seed}: ON ${o(d.on)}, OFF ${o(d.off)}; first different decision at step ${d.firstDifferentStep ?? "-"}`);
        for (const [arm, steps] of [["ON ", d.window.on], ["OFF", d.window.off]] as const) {
          lines.push(`  ${arm} ${steps.map((s) => `${s.step}:${ACTIONS[s.action] ?? s.action} (threat ${s.maxThreat.toFixed(2)}, r ${s.maxRisk.toFixed(2)}, |delta| ${s.maxDelta.toFixed(2)})`).join(" | ")}`);
        }
      }
    }
    lines.push("");
  }
  return lines.join("\n");
}
