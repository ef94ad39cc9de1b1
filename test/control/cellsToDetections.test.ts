import { CellsToDetections } from "../../src/control/cellsToDetections";
import { DETECTION_CLASSES } from "../../src/harness/actions";
import type { Header } from "../../src/control/visionTypes";

const header: Header = { stamp: { sec: 12, nanosec: 345 }, frame_id: "camera_optical" };

/** Builds an HWC grid with every cell at background 1.0 except the listed (row, col, class, p). */
function grid(rows: number, cols: number, cells: Array<[number, number, number, number]>): Float32Array {
  const k = DETECTION_CLASSES.length;
  const g = new Float32Array(rows * cols * k);
  for (let i = 0; i < rows * cols; i++) g[i * k] = 1;
  for (const [r, c, cls, p] of cells) {
    g[(r * cols + c) * k] = 1 - p;
    g[(r * cols + c) * k + cls] = p;
  }
  return g;
}

describe("CellsToDetections", () => {
  const base = { rows: 32, cols: 32, numClasses: 4, classNames: DETECTION_CLASSES };

  it("turns a horizontal wire of cells into one box in original-image pixels (hand-computed)", () => {
    // Wire: class 1 in row 10, cols 4..20 with p 0.6..0.9. Cells are 8x8 px on 256x256, so the box
    // spans x in [4*8, 21*8) = [32, 168), y in [80, 88): center (100, 84), size 136 x 8.
    const cells: Array<[number, number, number, number]> = [];
    for (let c = 4; c <= 20; c++) cells.push([10, c, 1, c === 12 ? 0.9 : 0.6]);
    const det = new CellsToDetections(base).run(grid(32, 32, cells), 256, 256, header);
    expect(det).toHaveLength(1);
    const d = det[0]!;
    expect(d.results[0]!.hypothesis.class_id).toBe("wire");
    expect(d.results[0]!.hypothesis.score).toBeCloseTo(0.9, 6);
    expect(d.bbox.center.position.x).toBeCloseTo(100, 9);
    expect(d.bbox.center.position.y).toBeCloseTo(84, 9);
    expect(d.bbox.size_x).toBeCloseTo(136, 9);
    expect(d.bbox.size_y).toBeCloseTo(8, 9);
    expect(d.header).toEqual(header);
    expect(d.header).not.toBe(header);
  });

  it("scales boxes to the original resolution (640x480 image, 32x32 grid)", () => {
    // Cell (0, 0) on a 640x480 image covers 20 x 15 px: center (10, 7.5).
    const det = new CellsToDetections(base).run(grid(32, 32, [[0, 0, 3, 0.8]]), 640, 480, header);
    expect(det).toHaveLength(1);
    expect(det[0]!.results[0]!.hypothesis.class_id).toBe("pole_trunk");
    expect(det[0]!.bbox.center.position.x).toBeCloseTo(10, 9);
    expect(det[0]!.bbox.center.position.y).toBeCloseTo(7.5, 9);
    expect(det[0]!.bbox.size_x).toBeCloseTo(20, 9);
    expect(det[0]!.bbox.size_y).toBeCloseTo(15, 9);
  });

  it("joins diagonal cells with 8-connectivity and splits them with 4-connectivity", () => {
    const g = grid(8, 8, [[1, 1, 2, 0.7], [2, 2, 2, 0.7], [3, 3, 2, 0.7]]);
    const opts = { ...base, rows: 8, cols: 8 };
    expect(new CellsToDetections({ ...opts, connectivity: 8 }).run(g, 64, 64, header)).toHaveLength(1);
    const four = new CellsToDetections({ ...opts, connectivity: 4 }).run(g, 64, 64, header);
    expect(four).toHaveLength(3);
    expect(four.every((d) => d.results[0]!.hypothesis.class_id === "branch")).toBe(true);
  });

  it("scores a component by max or by mean", () => {
    const g = grid(4, 4, [[0, 0, 1, 0.5], [0, 1, 1, 0.7], [0, 2, 1, 0.9]]);
    const opts = { ...base, rows: 4, cols: 4, scoreThreshold: 0.5 };
    expect(new CellsToDetections({ ...opts, scoreMode: "max" }).run(g, 32, 32, header)[0]!.results[0]!.hypothesis.score).toBeCloseTo(0.9, 6);
    expect(new CellsToDetections({ ...opts, scoreMode: "mean" }).run(g, 32, 32, header)[0]!.results[0]!.hypothesis.score).toBeCloseTo(0.7, 6);
  });

  it("applies the threshold, minCells, never reports background, and ignores NaN cells", () => {
    const g = grid(4, 4, [[0, 0, 1, 0.4], [3, 3, 2, 0.95], [2, 0, 1, Number.NaN]]);
    const opts = { ...base, rows: 4, cols: 4 };
    const det = new CellsToDetections({ ...opts, scoreThreshold: 0.5 }).run(g, 32, 32, header);
    expect(det.map((d) => d.results[0]!.hypothesis.class_id)).toEqual(["branch"]);
    expect(new CellsToDetections({ ...opts, minCells: 2 }).run(g, 32, 32, header)).toHaveLength(0);
  });

  it("reads the chw layout the same as hwc", () => {
    const rows = 4, cols = 4, k = 4;
    const hwc = grid(rows, cols, [[1, 1, 1, 0.8], [1, 2, 1, 0.8], [3, 0, 3, 0.6]]);
    const chw = new Float32Array(hwc.length);
    for (let cell = 0; cell < rows * cols; cell++) for (let c = 0; c < k; c++) chw[c * rows * cols + cell] = hwc[cell * k + c]!;
    const a = new CellsToDetections({ ...base, rows, cols }).run(hwc, 32, 32, header);
    const b = new CellsToDetections({ ...base, rows, cols, layout: "chw" }).run(chw, 32, 32, header);
    expect(b).toEqual(a);
    expect(a).toHaveLength(2);
  });

  it("reuses the output array and gives the same answer on repeated frames", () => {
    const c2d = new CellsToDetections(base);
    const out = c2d.run(grid(32, 32, [[5, 5, 1, 0.9]]), 256, 256, header);
    const again = c2d.run(grid(32, 32, [[5, 5, 1, 0.9]]), 256, 256, header, out);
    expect(again).toBe(out);
    expect(again).toHaveLength(1);
  });

  it("rejects bad shapes with messages naming the value and the valid range", () => {
    expect(() => new CellsToDetections({ ...base, rows: 0 })).toThrow("rows=0, expected an integer >= 1");
    expect(() => new CellsToDetections({ ...base, classNames: ["a"] })).toThrow("classNames.length=1, expected numClasses=4");
    expect(() => new CellsToDetections({ ...base, scoreThreshold: 1.5 })).toThrow("scoreThreshold=1.5, expected a number in [0, 1]");
    expect(() => new CellsToDetections(base).run(new Float32Array(5), 256, 256, header)).toThrow(
      "probs.length=5, expected rows*cols*numClasses=32*32*4=4096",
    );
    expect(() => new CellsToDetections(base).run(new Float32Array(4096), 0, 256, header)).toThrow("image size 0x256");
  });
});
