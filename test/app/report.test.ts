import { PNG } from "pngjs";
import { drawBoxes, pngDataUri } from "../../src/app/report/framePng";
import { linePlot, tickStep } from "../../src/app/report/svg";
import { topDownMap } from "../../src/app/report/topDownMap";
import { collisionFrames, decisionChangeFrames, differingDecisions, flightsTableOf, identicalSeeds } from "../../src/app/report/renderReport";
import { DecisionCheck } from "../../src/app/decisionChange";
import { DEFAULT_SCENARIO, seedsOfSplit } from "../../sim";
import { createSimulation } from "../../sim/Simulation";
import { judge, parseDumpedCheck } from "../../src/app/checkReport";
import type { FlightRecord, WorldSketch } from "../../src/app/types";

describe("report pieces", () => {
  it("linePlot counts finite points, breaks lines at NaN and escapes text", () => {
    const svg = linePlot({ name: "r", title: "a < b", xLabel: "t", yLabel: "r", series: [{ name: "s", color: "#000", x: [0, 1, 2, 3], y: [0.1, Number.NaN, 0.3, 0.4] }] });
    expect(svg).toContain('data-plot="r"');
    expect(svg).toContain('data-points="3"');
    expect(svg).toContain("a &lt; b");
    // Two separate pieces of line: the NaN lifts the pen.
    const d = /<path d="([^"]+)" fill="none" stroke="#000"/.exec(svg)![1]!;
    expect(d.match(/M/g)).toHaveLength(2);
  });

  it("tick steps are 1, 2 or 5 times a power of ten", () => {
    expect(tickStep(1)).toBeCloseTo(0.2, 12);
    expect(tickStep(20)).toBe(5);
    expect(tickStep(0)).toBe(1);
  });

  it("drawBoxes outlines a box in the class colour and leaves the inside untouched", () => {
    const W = 16, H = 16;
    const rgb = new Uint8Array(W * H * 3).fill(10);
    const img = drawBoxes(rgb, W, H, [{ classId: "wire", score: 0.9, x0: 2, y0: 2, x1: 10, y1: 8 }], []);
    const px = (x: number, y: number): number[] => Array.from(img.subarray((y * W + x) * 4, (y * W + x) * 4 + 4));
    expect(px(2, 2)).toEqual([255, 40, 40, 255]); // corner
    expect(px(9, 7)).toEqual([255, 40, 40, 255]); // opposite corner (x1, y1 exclusive)
    expect(px(3, 3)).toEqual([255, 40, 40, 255]); // 2 px thick
    expect(px(5, 5)).toEqual([10, 10, 10, 255]); // inside
    expect(px(12, 12)).toEqual([10, 10, 10, 255]); // outside
    expect(() => drawBoxes(new Uint8Array(5), W, H, [], [])).toThrow("rgb.length=5, expected 16x16x3=768");
  });

  it("pngDataUri decodes back to the same pixels", () => {
    const rgba = Uint8Array.from({ length: 4 * 3 * 4 }, (_, i) => (i * 37) % 256);
    const uri = pngDataUri(rgba, 4, 3);
    expect(uri.startsWith("data:image/png;base64,")).toBe(true);
    const png = PNG.sync.read(Buffer.from(uri.slice("data:image/png;base64,".length), "base64"));
    expect([png.width, png.height]).toEqual([4, 3]);
    expect(Array.from(png.data)).toEqual(Array.from(rgba));
  });

  it("topDownMap draws both trajectories, the collision and the structures", () => {
    const world: WorldSketch = { seed: 7, wires: [-20, 30, 20, 32], branches: [3, 10, 4, 11], posts: [-20, 30, 0.15], start: { x: 0, y: 0 }, goal: { x: 0, y: 100 } };
    const f = (arm: "on" | "off", collided: boolean): FlightRecord => ({
      arm, seed: 7, status: collided ? "collided" : "flying", simTime_s: 3, cameraFrames: 3, distance_m: 30,
      collision: collided ? { time_s: 3, x: 0, y: 31, z: 8, cls: 1 } : undefined, latencyMs: [], framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
      series: { time_s: [0, 1, 2], x: [0, 0, 0], y: [0, 15, 31], z: [8, 8, 8], risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] }, samples: [], minClearance: { clearance_m: 2, time_s: 1 }, wallTime_ms: 0, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
    });
    const svg = topDownMap(world, [f("on", false), f("off", true)]);
    expect(svg).toContain('data-plot="map-seed-7"');
    expect(svg).toContain('data-points="6"');
    expect(svg.match(/class="trajectory"/g)).toHaveLength(2);
    expect(svg.match(/class="collision" data-arm="off"/g)).toHaveLength(1);
    expect(svg).toContain('stroke="#333"'); // wires
    expect(svg).toContain('fill="#6b4a2b"'); // a pole
  });

  it("reads the report's own check back from a dumped DOM and judges it", () => {
    const json = JSON.stringify({ images: [{ alt: "a", naturalWidth: 256, naturalHeight: 256, complete: true }, { alt: "b", naturalWidth: 0, naturalHeight: 0, complete: true }], plots: [{ name: "pr-wire", points: 10, paths: 3, width: 500 }] });
    const dom = `<html><body><pre id="report-check" data-ready="1">${json.replace(/"/g, "&quot;")}</pre></body></html>`;
    const v = judge(parseDumpedCheck(dom), ["pr-wire", "risk-on"]);
    expect(v.ok).toBe(false);
    expect(v.problems).toEqual(['image "b" did not decode (naturalWidth=0)', "plot risk-on* missing"]);
    expect(() => parseDumpedCheck("<html></html>")).toThrow('no <pre id="report-check">');
  });
});

describe("identicalSeeds", () => {
  it("finds seeds whose ON and OFF paths coincide", () => {
    const f = (arm: "on" | "off", seed: number, x: number[]): FlightRecord => ({
      arm, seed, status: "flying", simTime_s: 1, cameraFrames: x.length, distance_m: 1, collision: undefined, latencyMs: [], framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
      series: { time_s: x.map((_, i) => i), x, y: x, z: x, risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] }, samples: [], minClearance: { clearance_m: 2, time_s: 1 }, wallTime_ms: 0, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
    });
    expect(identicalSeeds([f("on", 1, [0, 1, 2]), f("off", 1, [0, 1, 2]), f("on", 2, [0, 1, 2]), f("off", 2, [0, 1, 2.5])])).toEqual([1]);
  });

  it("counts the commands that differ between the arms frame by frame, and when the first did", () => {
    const f = (arm: "on" | "off", seed: number, vz: number[]): FlightRecord => ({
      arm, seed, status: "flying", simTime_s: 1, cameraFrames: vz.length, distance_m: 1, collision: undefined, latencyMs: [], framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
      series: { time_s: vz.map((_, i) => i / 10), x: [], y: [], z: [], risk: [], maxAbsDelta: [], cmdVx: vz.map(() => 4), cmdVz: vz, cmdYawRate: vz.map(() => 0) }, samples: [], minClearance: { clearance_m: 2, time_s: 1 }, wallTime_ms: 0, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
    });
    // Seed 2: frame 1 unanswered in OFF (not compared), frames 2 and 3 climb in ON only.
    const d = differingDecisions([f("on", 1, [0, 0, 0]), f("off", 1, [0, 0, 0]), f("on", 2, [0, 0, 1.5, 1.5]), f("off", 2, [0, Number.NaN, 0, 0])]);
    expect(d).toEqual([
      { seed: 1, compared: 3, differing: 0, first_s: undefined },
      { seed: 2, compared: 3, differing: 2, first_s: 0.2 },
    ]);
  });

  it("shows the last camera frame before each collision, and says when there was none", () => {
    const frame = { frame: 89, time_s: 2.97, width: 8, height: 8, rgb: new Uint8Array(8 * 8 * 3).fill(90), thinPixels: 0, raw: [], corrected: [], truth: [], beforeCollision: true };
    const f = (arm: "on" | "off", collided: boolean): FlightRecord => ({
      arm, seed: 7, status: collided ? "collided" : "flying", simTime_s: 3, cameraFrames: 90, distance_m: 30,
      collision: collided ? { time_s: 3, x: 0, y: 31, z: 8, cls: 1 } : undefined, latencyMs: [], framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
      series: { time_s: [], x: [], y: [], z: [], risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] }, samples: collided ? [frame] : [], minClearance: { clearance_m: 0, time_s: 3 }, wallTime_ms: 0, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
    });
    const html = collisionFrames([f("on", false), f("off", true)]);
    expect(html).toContain("harness OFF, seed 7: hit wire at t=3.00 s");
    expect(html.match(/<img /g)).toHaveLength(2);
    expect(html).not.toContain("harness ON");
    expect(collisionFrames([f("on", false)])).toBe("<p>No collision.</p>");
  });

  it("shows the frames where the correction changed the manoeuvre, with the count per ON flight", () => {
    const changed = { frame: 12, time_s: 0.4, width: 8, height: 8, rgb: new Uint8Array(8 * 8 * 3).fill(90), thinPixels: 0, raw: [], corrected: [], truth: [], decisionChange: { raw: "cruise", corrected: "climb" } };
    const f = (arm: "on" | "off", n: number): FlightRecord => ({
      arm, seed: 4, status: "flying", simTime_s: 3, cameraFrames: 90, distance_m: 30, collision: undefined, latencyMs: [], framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
      series: { time_s: [], x: [], y: [], z: [], risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] }, samples: n > 0 ? [changed] : [], minClearance: { clearance_m: 0, time_s: 3 }, wallTime_ms: 0, callbackErrors: 0, decisionsChanged: n, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
    });
    const html = decisionChangeFrames([f("on", 7), f("off", 0)]);
    expect(html).toContain("seed 4: the correction changed the manoeuvre at 7 of 90 camera frames (the first 1 shown)");
    expect(html).toContain("<b>cruise</b>, corrected cells -> <b>climb</b>");
    expect(html.match(/<img /g)).toHaveLength(2);
    expect(decisionChangeFrames([f("on", 0)])).toContain("at 0 of 90 camera frames</h3>");
  });

  it("lists per flight the frames the safety node hovered, with their causes", () => {
    const f = (arm: "on" | "off", safetyOverrides: FlightRecord["safetyOverrides"]): FlightRecord => ({
      arm, seed: 4, status: "flying", simTime_s: 3, cameraFrames: 90, distance_m: 30, collision: undefined, latencyMs: [10], framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
      series: { time_s: [], x: [], y: [], z: [], risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] }, samples: [], minClearance: { clearance_m: 0, time_s: 3 }, wallTime_ms: 0, callbackErrors: 0, decisionsChanged: 0, safetyOverrides, recorded: false,
    });
    const html = flightsTableOf([f("on", { frames: 5, byCause: { harness: 3, "waiting for first gps/fix": 2 } }), f("off", { frames: 0, byCause: {} })]);
    expect(html).toContain("<th>frames the safety node hovered</th>");
    expect(html).toContain("<td>5 (harness 3, waiting for first gps/fix 2)</td>");
    expect(html).toContain("<td>0</td>");
  });

  it("DecisionCheck: the same cells give no change; a wall of threat straight ahead changes cruise", () => {
    const sim = createSimulation(DEFAULT_SCENARIO, { seed: seedsOfSplit("test", 1)[0]!, split: "test", perturbed: false });
    const cells = (threat: Float32Array) => ({ threat_probs: threat, grid_rows: 32, grid_cols: 32, image_width: 256, image_height: 256 });
    const free = new Float32Array(32 * 32);
    const check = new DecisionCheck();
    expect(check.compare(cells(free), cells(free), sim)).toBeUndefined();
    const wall = new Float32Array(32 * 32).fill(1);
    const change = check.compare(cells(free), cells(wall), sim);
    expect(change).toBeDefined();
    expect(change!.raw).not.toBe(change!.corrected);
    expect(check.compare(cells(free), { ...cells(wall), threat_probs: new Float32Array(3) }, sim)).toBeUndefined();
  });
});
