/**
 * Small SVG builders for the report (pure: strings in, strings out). Every plot carries
 * `data-plot` (its name) and `data-points` (the number of finite data points drawn), which the
 * report's self-check and scripts/check-report.ts read back from the rendered DOM.
 */

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export type PlotSeries = { name: string; color: string; x: readonly number[]; y: readonly number[]; dashed?: boolean };

export type LinePlotOptions = {
  name: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly PlotSeries[];
  /** Axis ranges; default the data's extent (y from 0). */
  xRange?: [number, number];
  yRange?: [number, number];
  width?: number;
  height?: number;
  /** Horizontal reference lines (e.g. a threshold) with labels. */
  hLines?: ReadonlyArray<{ y: number; label: string }>;
};

const fmtTick = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

/** "Nice" tick step for a span: 1, 2 or 5 times a power of ten, about `n` ticks. */
export function tickStep(span: number, n = 5): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/** A line plot; NaN values break the line (a frame without a value). */
export function linePlot(o: LinePlotOptions): string {
  const W = o.width ?? 560;
  const H = o.height ?? 260;
  const m = { l: 52, r: 12, t: 28, b: 40 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  let xmin = Infinity, xmax = -Infinity, ymin = 0, ymax = -Infinity;
  let points = 0;
  for (const s of o.series) {
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i]!, y = s.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      points++;
      xmin = Math.min(xmin, x);
      xmax = Math.max(xmax, x);
      ymin = Math.min(ymin, y);
      ymax = Math.max(ymax, y);
    }
  }
  if (o.xRange !== undefined) [xmin, xmax] = o.xRange;
  if (o.yRange !== undefined) [ymin, ymax] = o.yRange;
  if (!Number.isFinite(xmin) || !(xmax > xmin)) [xmin, xmax] = [0, 1];
  if (!Number.isFinite(ymax) || !(ymax > ymin)) ymax = ymin + 1;
  const sx = (x: number): number => m.l + ((x - xmin) / (xmax - xmin)) * pw;
  const sy = (y: number): number => m.t + ph - ((y - ymin) / (ymax - ymin)) * ph;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="plot" data-plot="${escapeXml(o.name)}" data-points="${points}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`);
  parts.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(o.title)}</text>`);
  const xs = tickStep(xmax - xmin);
  for (let v = Math.ceil(xmin / xs) * xs; v <= xmax + 1e-9; v += xs) {
    parts.push(`<line x1="${sx(v).toFixed(1)}" y1="${m.t}" x2="${sx(v).toFixed(1)}" y2="${m.t + ph}" stroke="#eee"/>`);
    parts.push(`<text x="${sx(v).toFixed(1)}" y="${m.t + ph + 14}" text-anchor="middle" font-size="10">${fmtTick(v)}</text>`);
  }
  const ys = tickStep(ymax - ymin);
  for (let v = Math.ceil(ymin / ys) * ys; v <= ymax + 1e-9; v += ys) {
    parts.push(`<line x1="${m.l}" y1="${sy(v).toFixed(1)}" x2="${m.l + pw}" y2="${sy(v).toFixed(1)}" stroke="#eee"/>`);
    parts.push(`<text x="${m.l - 4}" y="${(sy(v) + 3).toFixed(1)}" text-anchor="end" font-size="10">${fmtTick(v)}</text>`);
  }
  parts.push(`<rect x="${m.l}" y="${m.t}" width="${pw}" height="${ph}" fill="none" stroke="#888"/>`);
  parts.push(`<text x="${m.l + pw / 2}" y="${H - 6}" text-anchor="middle" font-size="11">${escapeXml(o.xLabel)}</text>`);
  parts.push(`<text x="12" y="${m.t + ph / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${m.t + ph / 2})">${escapeXml(o.yLabel)}</text>`);
  for (const h of o.hLines ?? []) {
    if (h.y < ymin || h.y > ymax) continue;
    parts.push(`<line x1="${m.l}" y1="${sy(h.y).toFixed(1)}" x2="${m.l + pw}" y2="${sy(h.y).toFixed(1)}" stroke="#c00" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${m.l + pw - 2}" y="${(sy(h.y) - 3).toFixed(1)}" text-anchor="end" font-size="10" fill="#c00">${escapeXml(h.label)}</text>`);
  }
  parts.push(`<g clip-path="none">`);
  for (const s of o.series) {
    let d = "";
    let pen = false;
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i]!, y = s.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        pen = false;
        continue;
      }
      const cy = Math.min(Math.max(y, ymin), ymax);
      d += `${pen ? "L" : "M"}${sx(x).toFixed(1)} ${sy(cy).toFixed(1)}`;
      pen = true;
    }
    if (d !== "") parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.5"${s.dashed === true ? ' stroke-dasharray="5 3"' : ""}/>`);
  }
  parts.push(`</g>`);
  if (o.series.length > 0) {
    const longest = Math.max(...o.series.map((s) => s.name.length));
    parts.push(`<rect x="${m.l + 4}" y="${m.t + 2}" width="${34 + longest * 5.6}" height="${o.series.length * 14 + 4}" fill="#fff" fill-opacity="0.85" stroke="#ddd"/>`);
  }
  o.series.forEach((s, i) => {
    const y = m.t + 12 + i * 14;
    parts.push(`<line x1="${m.l + 8}" y1="${y - 4}" x2="${m.l + 26}" y2="${y - 4}" stroke="${s.color}" stroke-width="2"${s.dashed === true ? ' stroke-dasharray="5 3"' : ""}/>`);
    parts.push(`<text x="${m.l + 30}" y="${y}" font-size="10">${escapeXml(s.name)}</text>`);
  });
  parts.push(`</svg>`);
  return parts.join("");
}
