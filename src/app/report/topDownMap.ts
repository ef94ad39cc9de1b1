/**
 * Top-down map of one seed's world (SVG, pure): wires and branches as lines, poles and trunks
 * as circles, start and goal, and the trajectory of each arm with its collision marked. World
 * ENU metres (x east to the right, y north up), equal scale on both axes.
 */
import type { Arm, FlightRecord, WorldSketch } from "../types";
import { escapeXml } from "./svg";

export const ARM_COLORS: Record<Arm, string> = { on: "#1f6fd1", off: "#e07b00" };

export function topDownMap(world: WorldSketch, flights: readonly FlightRecord[], o: { width?: number; height?: number } = {}): string {
  const H = o.height ?? 520;
  const W0 = o.width ?? 300;
  // View: start, goal and every trajectory point, 12 m margin.
  let xmin = Math.min(world.start.x, world.goal.x), xmax = Math.max(world.start.x, world.goal.x);
  let ymin = Math.min(world.start.y, world.goal.y), ymax = Math.max(world.start.y, world.goal.y);
  let points = 0;
  for (const f of flights) {
    for (let i = 0; i < f.series.x.length; i++) {
      xmin = Math.min(xmin, f.series.x[i]!);
      xmax = Math.max(xmax, f.series.x[i]!);
      ymin = Math.min(ymin, f.series.y[i]!);
      ymax = Math.max(ymax, f.series.y[i]!);
      points++;
    }
  }
  const margin = 12;
  xmin -= margin;
  xmax += margin;
  ymin -= margin;
  ymax += margin;
  // Equal scale: widen x to the aspect ratio of the picture.
  const scale = Math.min((H - 40) / (ymax - ymin), (W0 - 20) / (xmax - xmin));
  const cx = (xmin + xmax) / 2;
  const half = (W0 - 20) / scale / 2;
  xmin = cx - half;
  xmax = cx + half;
  const W = W0;
  const sx = (x: number): number => 10 + (x - xmin) * scale;
  const sy = (y: number): number => 30 + (ymax - y) * scale;
  const inView = (x: number, y: number): boolean => x >= xmin - 5 && x <= xmax + 5 && y >= ymin - 5 && y <= ymax + 5;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="plot map" data-plot="map-seed-${world.seed}" data-points="${points}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#f4f1e8"/>`);
  parts.push(`<text x="${W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">seed ${world.seed}</text>`);
  const segs = (xy: readonly number[], color: string, width: number): void => {
    let d = "";
    for (let i = 0; i + 3 < xy.length; i += 4) {
      const ax = xy[i]!, ay = xy[i + 1]!, bx = xy[i + 2]!, by = xy[i + 3]!;
      if (!inView(ax, ay) && !inView(bx, by)) continue;
      d += `M${sx(ax).toFixed(1)} ${sy(ay).toFixed(1)}L${sx(bx).toFixed(1)} ${sy(by).toFixed(1)}`;
    }
    if (d !== "") parts.push(`<path d="${d}" stroke="${color}" stroke-width="${width}" fill="none" stroke-linecap="round"/>`);
  };
  parts.push(`<g clip-path="inset(0)">`);
  segs(world.branches, "#3d8b37", 1.2);
  segs(world.wires, "#333", 1);
  for (let i = 0; i + 2 < world.posts.length; i += 3) {
    const x = world.posts[i]!, y = world.posts[i + 1]!;
    if (!inView(x, y)) continue;
    parts.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="${Math.max(2, world.posts[i + 2]! * scale).toFixed(1)}" fill="#6b4a2b"/>`);
  }
  parts.push(`</g>`);
  for (const f of flights) {
    let d = "";
    for (let i = 0; i < f.series.x.length; i++) d += `${i === 0 ? "M" : "L"}${sx(f.series.x[i]!).toFixed(1)} ${sy(f.series.y[i]!).toFixed(1)}`;
    if (d !== "") parts.push(`<path class="trajectory" data-arm="${f.arm}" d="${d}" stroke="${ARM_COLORS[f.arm]}" stroke-width="2" fill="none"${f.arm === "off" ? ' stroke-dasharray="6 3"' : ""}/>`);
    if (f.collision !== undefined) {
      const x = sx(f.collision.x), y = sy(f.collision.y);
      parts.push(
        `<g class="collision" data-arm="${f.arm}"><title>${f.arm} arm hit class ${f.collision.cls} (0 ground, 1 wire, 2 branch, 3 pole/trunk) at t=${f.collision.time_s.toFixed(1)} s, z=${f.collision.z.toFixed(1)} m</title><path d="M${x - 6} ${y - 6}L${x + 6} ${y + 6}M${x - 6} ${y + 6}L${x + 6} ${y - 6}" stroke="#d00" stroke-width="3"/>` +
          `<circle cx="${x}" cy="${y}" r="9" stroke="${ARM_COLORS[f.arm]}" stroke-width="1.5" fill="none"/></g>`,
      );
    }
  }
  parts.push(`<circle cx="${sx(world.start.x)}" cy="${sy(world.start.y)}" r="6" fill="#2a2" stroke="#fff"/>`);
  parts.push(`<text x="${sx(world.start.x) + 9}" y="${sy(world.start.y) + 4}" font-size="11">start</text>`);
  parts.push(`<rect x="${sx(world.goal.x) - 6}" y="${sy(world.goal.y) - 6}" width="12" height="12" fill="#a2a" stroke="#fff"/>`);
  parts.push(`<text x="${sx(world.goal.x) + 9}" y="${sy(world.goal.y) + 4}" font-size="11">goal</text>`);
  // 10 m scale bar.
  parts.push(`<path d="M${W - 20 - 10 * scale} ${H - 12}h${10 * scale}" stroke="#000" stroke-width="2"/><text x="${W - 20 - 5 * scale}" y="${H - 16}" text-anchor="middle" font-size="10">10 m</text>`);
  parts.push(`<title>${escapeXml(`seed ${world.seed}: wires (black), branches (green), poles/trunks (brown), harness ON (blue), OFF (orange, dashed), collisions (red X)`)}</title>`);
  parts.push(`</svg>`);
  return parts.join("");
}
