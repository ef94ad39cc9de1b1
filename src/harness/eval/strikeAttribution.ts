/**
 * What the planner saw before a wire or branch strike (issue 13: which collisions a better
 * detection could have prevented at all).
 *
 * Every control step of an attributed flight records, per thin class (wire, branch), how many
 * cells of the detection grid hold a near-threat pixel of that class (the simulator's visible
 * mask and depth, nearThreatCells: under 12 m) and the largest threat the planner read on those
 * cells (its input grid, corrected when the harness corrects), with how many of them it flagged
 * and how many cells it flagged where no near-threat structure is (false alarms that crowd
 * the way out). After a strike, the last `window_s` seconds of the struck class decide its kind:
 * - "not in view": no near-threat cell of that class in the window (the obstacle was outside the
 *   camera's field of view, or hidden, until the end): no detector could have flagged it;
 * - "in view, not flagged": visible and near, but the planner's threat on those cells stayed
 *   under `flagThreat` in every frame: a detection miss;
 * - "flagged late": flagged for the first time less than `late_s` before the impact;
 * - "flagged in time": flagged earlier, and still hit: the planner's reaction, not the detector.
 * The class is that of the struck obstacle, not its identity (the mask holds classes, not
 * objects): another wire in view counts as seen.
 */
import { ACTIONS, DETECTION_CLASSES, type ActionName } from "../actions";
import { nearClassCells, nearThreatCells, type GridSpec } from "./CellLabels";
import type { FlightOutcome } from "./FlightMetrics";

/**
 * One frame: near-threat cells of each thin class, how many of them the planner flagged, its
 * largest threat on them, and the cells it flagged that hold no near-threat structure at all.
 */
export type StepSight = { wireNear: number; wireFlagged: number; wireThreat: number; branchNear: number; branchFlagged: number; branchThreat: number; flaggedElsewhere: number };

export const STRIKE_KINDS = ["not in view", "in view, not flagged", "flagged late", "flagged in time"] as const;
export type StrikeKind = (typeof STRIKE_KINDS)[number];

export type StrikeOptions = {
  /** Seconds before the impact that are read. Default 3 (the planner's horizon, SPEC "Pipeline"). */
  window_s: number;
  /** Planner threat at or above which a cell counts as flagged. Default 0.5. */
  flagThreat: number;
  /** A first flag closer than this to the impact is late, s. Default 1. */
  late_s: number;
  /** Read the vertical commitment at the window's climb and descend decisions (the flight flew PlannerOptions.verticalCommit): StrikeAttribution.vertical. */
  vertical?: boolean;
};

export const DEFAULT_STRIKE_OPTIONS: Readonly<StrikeOptions> = Object.freeze({ window_s: 3, flagThreat: 0.5, late_s: 1 });

export type StrikeAttribution = {
  seed: number;
  obstacle: "wire" | "branch";
  time_s: number;
  kind: StrikeKind;
  /** Frames of the window with a near-threat cell of the struck class / frames in the window. */
  framesInView: number;
  frames: number;
  /** Largest planner threat on those cells in the window (0 when never in view). */
  maxThreat: number;
  /** Mean over the in-view frames of the share of those cells flagged (0 when never in view). */
  coverage: number;
  /** Mean number of flagged cells holding no near-threat structure, over the window's frames. */
  flaggedElsewhere: number;
  /** Seconds before the impact of the first flagged frame in the window. */
  firstFlagged_s?: number;
  /** The manoeuvres chosen in the window, oldest first (ACTIONS indices). */
  actions: number[];
  /** Frames of the window in which the wire gate held the correction back (only with a wire gate: SpatialHarnessOptions.wireGate). */
  gateClosed?: number;
  /** The window's climb and descend decisions under the vertical commitment (only when the flight flew one: PlannerOptions.verticalCommit). */
  vertical?: StrikeVertical;
};

/**
 * What the vertical commitment did at the climb and descend decisions of a strike's window: how
 * many had a side fixed (by the wire cells' height: wire), where the true side was known (the
 * nearest conductor ahead, trueWireSide) how many flew it, how many were turned, and of the
 * others how many came with the wire evidence open (under the blocked_cruise level) or shut.
 * `last`: the last climb or descend decision of the window.
 */
export type StrikeVertical = {
  decisions: number;
  fixed: number;
  byWire: number;
  truthKnown: number;
  trueSide: number;
  turned: number;
  belowLevel: number;
  noEvidence: number;
  last?: { before_s: number; action: number; fixed?: "wire" | "truth" | "choice"; truth?: "climb" | "descend" | "none"; turned: boolean; wireSeen: boolean };
};

/** A step's vertical commitment fields (StepTrace). */
export type StepCommit = { commit?: "wire" | "truth" | "choice"; commitTruth?: "climb" | "descend" | "none"; turned?: 1; wireSeen?: 1 };

const WIRE = DETECTION_CLASSES.indexOf("wire");
const BRANCH = DETECTION_CLASSES.indexOf("branch");

/** Reuses its buffers between frames of one grid. */
export class SightRecorder {
  private readonly scratch: Uint8Array;
  private readonly cells: Uint8Array;

  constructor(
    private readonly grid: GridSpec,
    private readonly flagThreat = DEFAULT_STRIKE_OPTIONS.flagThreat,
  ) {
    this.scratch = new Uint8Array(grid.width * grid.height);
    this.cells = new Uint8Array((grid.width / grid.cell_px) * (grid.height / grid.cell_px));
  }

  /** The near-threat cells of each thin class in this frame and what the planner read on them and elsewhere. */
  sight(visibleMask: Uint8Array, depth: Float32Array, threat: ArrayLike<number>): StepSight {
    if (threat.length !== this.cells.length) throw new RangeError(`threat.length=${threat.length}, expected ${this.cells.length} grid cells`);
    const of = (classId: number): [number, number, number] => {
      const near = nearClassCells(visibleMask, classId, depth, this.grid, 0, this.scratch, this.cells);
      let n = 0;
      let flagged = 0;
      let max = 0;
      for (let i = 0; i < near.length; i++) {
        if (near[i] !== 1) continue;
        n++;
        const t = threat[i] ?? 0;
        if (t >= this.flagThreat) flagged++;
        max = Math.max(max, t);
      }
      return [n, flagged, max];
    };
    const [wireNear, wireFlagged, wireThreat] = of(WIRE);
    const [branchNear, branchFlagged, branchThreat] = of(BRANCH);
    const anyNear = nearThreatCells(visibleMask, depth, this.grid, 0, undefined, this.cells);
    let flaggedElsewhere = 0;
    for (let i = 0; i < anyNear.length; i++) if (anyNear[i] === 0 && (threat[i] ?? 0) >= this.flagThreat) flaggedElsewhere++;
    return { wireNear, wireFlagged, wireThreat, branchNear, branchFlagged, branchThreat, flaggedElsewhere };
  }
}

/** The kind of a wire or branch strike from the sights of its last steps; undefined for any other outcome. */
export function attributeStrike(steps: readonly ({ time_s: number; action?: number; sight?: StepSight; wireEvidence?: number; gateClosed?: 1 } & StepCommit)[], outcome: FlightOutcome, options: StrikeOptions = DEFAULT_STRIKE_OPTIONS): StrikeAttribution | undefined {
  if (outcome.type !== "collision" || (outcome.obstacle !== "wire" && outcome.obstacle !== "branch")) return undefined;
  const obstacle = outcome.obstacle;
  const impact = outcome.time_s;
  let frames = 0;
  let framesInView = 0;
  let maxThreat = 0;
  let coverage = 0;
  let elsewhere = 0;
  let firstFlagged: number | undefined;
  const actions: number[] = [];
  let gated = false;
  let gateClosed = 0;
  const inWindow: typeof steps[number][] = [];
  for (const s of steps) {
    if (s.sight === undefined || s.time_s > impact || impact - s.time_s > options.window_s) continue;
    inWindow.push(s);
    frames++;
    if (s.wireEvidence !== undefined) gated = true;
    if (s.gateClosed !== undefined) gateClosed++;
    if (s.action !== undefined) actions.push(s.action);
    elsewhere += s.sight.flaggedElsewhere;
    const near = obstacle === "wire" ? s.sight.wireNear : s.sight.branchNear;
    if (near === 0) continue;
    framesInView++;
    coverage += (obstacle === "wire" ? s.sight.wireFlagged : s.sight.branchFlagged) / near;
    const threat = obstacle === "wire" ? s.sight.wireThreat : s.sight.branchThreat;
    maxThreat = Math.max(maxThreat, threat);
    if (threat >= options.flagThreat && firstFlagged === undefined) firstFlagged = impact - s.time_s;
  }
  if (frames === 0) throw new RangeError(`seed ${outcome.seed}: no recorded sight in the ${options.window_s} s before the impact at ${impact} s`);
  const kind: StrikeKind = framesInView === 0 ? "not in view" : firstFlagged === undefined ? "in view, not flagged" : firstFlagged < options.late_s ? "flagged late" : "flagged in time";
  const shares = { coverage: framesInView === 0 ? 0 : coverage / framesInView, flaggedElsewhere: elsewhere / frames };
  const vertical = options.vertical === true ? strikeVertical(inWindow, impact) : undefined;
  return { seed: outcome.seed, obstacle, time_s: impact, kind, framesInView, frames, maxThreat, ...shares, actions, ...(firstFlagged === undefined ? {} : { firstFlagged_s: firstFlagged }), ...(gated ? { gateClosed } : {}), ...(vertical === undefined ? {} : { vertical }) };
}

const CLIMB = ACTIONS.indexOf("climb");
const DESCEND = ACTIONS.indexOf("descend");

/** Whether a decision with a side fixed flew the true side (known: not "none"). */
function flewTrueSide(truth: "climb" | "descend" | "none" | undefined, action: number): boolean {
  return truth !== undefined && truth !== "none" && truth === ACTIONS[action];
}

/** The vertical commitment at the window's climb and descend decisions. */
function strikeVertical(window: readonly ({ time_s: number; action?: number } & StepCommit)[], impact: number): StrikeVertical {
  const v: StrikeVertical = { decisions: 0, fixed: 0, byWire: 0, truthKnown: 0, trueSide: 0, turned: 0, belowLevel: 0, noEvidence: 0 };
  for (const s of window) {
    if (s.action !== CLIMB && s.action !== DESCEND) continue;
    v.decisions++;
    if (s.turned !== undefined) v.turned++;
    const truth = s.commit === undefined ? undefined : s.commitTruth ?? "none";
    if (s.commit === undefined) {
      if (s.wireSeen !== undefined) v.belowLevel++;
      else v.noEvidence++;
    } else {
      v.fixed++;
      if (s.commit === "wire") v.byWire++;
      if (truth !== "none") v.truthKnown++;
      if (flewTrueSide(truth, s.action)) v.trueSide++;
    }
    v.last = { before_s: impact - s.time_s, action: s.action, ...(s.commit === undefined ? {} : { fixed: s.commit, truth }), turned: s.turned !== undefined, wireSeen: s.wireSeen !== undefined };
  }
  return v;
}

/** Per-flight means of what the planner read, for flights that struck a wire and flights that did not. */
export type SightSummary = { flights: number; nearWireFrames: number; wireCoverage: number; flaggedElsewhere: number };

/**
 * Mean over flights of each flight's wire coverage (flagged / near wire cells, averaged over its
 * frames with a near wire) and of its cells flagged elsewhere per frame, split by whether the
 * flight ended on a wire: the comparison the strikes alone cannot make.
 */
export function summarizeSights(flights: readonly { outcome: FlightOutcome; trace: readonly { sight?: StepSight }[] }[]): { struck: SightSummary; notStruck: SightSummary } {
  const acc = (): SightSummary => ({ flights: 0, nearWireFrames: 0, wireCoverage: 0, flaggedElsewhere: 0 });
  const struck = acc();
  const notStruck = acc();
  for (const f of flights) {
    const sights = f.trace.flatMap((t) => (t.sight === undefined ? [] : [t.sight]));
    const near = sights.filter((s) => s.wireNear > 0);
    if (sights.length === 0 || near.length === 0) continue;
    const into = f.outcome.type === "collision" && f.outcome.obstacle === "wire" ? struck : notStruck;
    into.flights++;
    into.nearWireFrames += near.length;
    into.wireCoverage += near.reduce((a, s) => a + s.wireFlagged / s.wireNear, 0) / near.length;
    into.flaggedElsewhere += sights.reduce((a, s) => a + s.flaggedElsewhere, 0) / sights.length;
  }
  for (const g of [struck, notStruck]) {
    if (g.flights === 0) continue;
    g.wireCoverage /= g.flights;
    g.flaggedElsewhere /= g.flights;
  }
  return { struck, notStruck };
}

/** The window's manoeuvres as letters: c cruise, s slow, h hover, u climb, d descend, l / r yaw. */
export function formatStrikeActions(actions: readonly number[]): string {
  const letter: Record<ActionName, string> = { cruise: "c", slow: "s", hover: "h", climb: "u", descend: "d", yaw_left: "l", yaw_right: "r" };
  return actions.map((a) => {
    const name = ACTIONS[a];
    if (name === undefined) throw new RangeError(`action ${a}, expected an index of ACTIONS (0..${ACTIONS.length - 1})`);
    return letter[name];
  }).join("");
}

/** Counts per obstacle and kind, as "wire: not in view 3, ...". */
export function formatStrikeCounts(strikes: readonly StrikeAttribution[]): string {
  return (["wire", "branch"] as const)
    .map((o) => {
      const mine = strikes.filter((s) => s.obstacle === o);
      return `${o} ${mine.length} (${STRIKE_KINDS.map((k) => `${k} ${mine.filter((s) => s.kind === k).length}`).join(", ")})`;
    })
    .join("; ");
}

/** One strike's StrikeVertical as text: "climb/descend decisions 4: side fixed 3 (wire cells 2), ...". */
export function formatStrikeVertical(v: Readonly<StrikeVertical>): string {
  const last = v.last;
  const tail = last === undefined ? "" : `; the last ${last.before_s.toFixed(2)} s before: ${formatStrikeActions([last.action])}${last.fixed === undefined ? (last.wireSeen ? ", under the level" : ", no wire evidence") : `, fixed (${last.fixed}), true side ${last.truth ?? "none"}`}${last.turned ? ", turned" : ""}`;
  return `climb/descend decisions ${v.decisions}: side fixed ${v.fixed} (wire cells ${v.byWire}), true side known at ${v.truthKnown}, flown to it ${v.trueSide}, turned ${v.turned}; under the level ${v.belowLevel}, no wire evidence ${v.noEvidence}${tail}`;
}

/** Counts over a row's strikes of the last climb or descend decision before each (the vertical commitment's reading). */
export type StrikeVerticalSummary = { strikes: number; noVertical: number; lastNoEvidence: number; lastBelowLevel: number; lastFixed: number; lastTruthKnown: number; lastTrueSide: number; lastTurned: number; decisions: number; truthKnown: number; trueSide: number };

export function summarizeStrikeVerticals(strikes: readonly StrikeAttribution[]): StrikeVerticalSummary | undefined {
  const read = strikes.filter((s) => s.vertical !== undefined);
  if (read.length === 0) return undefined;
  const k: StrikeVerticalSummary = { strikes: read.length, noVertical: 0, lastNoEvidence: 0, lastBelowLevel: 0, lastFixed: 0, lastTruthKnown: 0, lastTrueSide: 0, lastTurned: 0, decisions: 0, truthKnown: 0, trueSide: 0 };
  for (const s of read) {
    const v = s.vertical!;
    k.decisions += v.decisions;
    k.truthKnown += v.truthKnown;
    k.trueSide += v.trueSide;
    const last = v.last;
    if (last === undefined) {
      k.noVertical++;
      continue;
    }
    if (last.turned) k.lastTurned++;
    if (last.fixed === undefined) {
      // A climb or descend with no side fixed: the evidence was shut, or open under the level.
      if (!last.wireSeen) k.lastNoEvidence++;
      else k.lastBelowLevel++;
      continue;
    }
    k.lastFixed++;
    if (last.truth !== undefined && last.truth !== "none") {
      k.lastTruthKnown++;
      if (flewTrueSide(last.truth, last.action)) k.lastTrueSide++;
    }
  }
  return k;
}
