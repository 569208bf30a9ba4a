/**
 * The one line every bench prints per figure: what was measured, the floor measured in the same run
 * (the physical or library limit: bare Express, one argon2 verify, BullMQ alone, bare Node...), their
 * ratio, the goal and whether it is met. A loaded machine moves both figures, so the ratio is what
 * survives the noise. `npm run bench` sets BENCH_REPORT_FILE and prints every bench's lines again at
 * the end, so one run ends with the whole table.
 *
 *   reportFigure({ name: 'agent idle RSS', measured: 57.9, unit: 'MB', floor: 42.1, floorWhat: 'bare Node',
 *                  goal: { measuredAtMost: 60 } });
 *   → bench | agent idle RSS | measured 57.9 MB | floor 42.1 MB (bare Node) | ratio 1.38 | goal ≤ 60 MB | met yes
 */
import fs from 'node:fs';

/** Every bound given must hold. `ratio` is measured / floor. */
export interface Goal {
  measuredAtMost?: number;
  measuredAtLeast?: number;
  ratioAtMost?: number;
  ratioAtLeast?: number;
}

export interface Figure {
  name: string;
  measured: number;
  /** 'ms', 'req/s', 'MB', 'ops/s'...: the floor is in the same unit */
  unit: string;
  floor: number;
  /** what the floor is: 'bare Express JSON route', 'tar | zstd -T0 of the same tree' */
  floorWhat: string;
  goal: Goal;
}

export interface FigureResult extends Figure {
  ratio: number;
  /** null when the figure has no goal (shown for comparison) */
  met: boolean | null;
}

/** Three significant digits at most, no exponent: 0.0312, 1.38, 57.9, 28500. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100 || magnitude === 0) return value.toFixed(0);
  return Number(value.toPrecision(3)).toString();
}

export function goalIsMet(goal: Goal, measured: number, ratio: number): boolean {
  const bounds = [
    goal.measuredAtMost === undefined || measured <= goal.measuredAtMost,
    goal.measuredAtLeast === undefined || measured >= goal.measuredAtLeast,
    goal.ratioAtMost === undefined || ratio <= goal.ratioAtMost,
    goal.ratioAtLeast === undefined || ratio >= goal.ratioAtLeast,
  ];
  return Number.isFinite(measured) && bounds.every(Boolean);
}

export function describeGoal(goal: Goal, unit: string): string {
  const parts = [
    goal.measuredAtMost !== undefined && `≤ ${formatNumber(goal.measuredAtMost)} ${unit}`,
    goal.measuredAtLeast !== undefined && `≥ ${formatNumber(goal.measuredAtLeast)} ${unit}`,
    goal.ratioAtMost !== undefined && `ratio ≤ ${formatNumber(goal.ratioAtMost)}`,
    goal.ratioAtLeast !== undefined && `ratio ≥ ${formatNumber(goal.ratioAtLeast)}`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? parts.join(' and ') : 'none';
}

export function evaluateFigure(figure: Figure): FigureResult {
  const ratio = figure.measured / figure.floor;
  const hasGoal = Object.values(figure.goal).some((bound) => bound !== undefined);
  return { ...figure, ratio, met: hasGoal ? goalIsMet(figure.goal, figure.measured, ratio) : null };
}

export function formatFigure(result: FigureResult): string {
  return [
    'bench',
    result.name,
    `measured ${formatNumber(result.measured)} ${result.unit}`,
    `floor ${formatNumber(result.floor)} ${result.unit} (${result.floorWhat})`,
    `ratio ${formatNumber(result.ratio)}`,
    `goal ${describeGoal(result.goal, result.unit)}`,
    `met ${result.met === null ? '-' : result.met ? 'yes' : 'NO'}`,
  ].join(' | ');
}

/** Prints the figure's line (and appends it to BENCH_REPORT_FILE when `npm run bench` set one). */
export function reportFigure(figure: Figure): FigureResult {
  const result = evaluateFigure(figure);
  const line = formatFigure(result);
  console.log(line);
  const file = process.env.BENCH_REPORT_FILE;
  if (file) fs.appendFileSync(file, `${line}\n`);
  return result;
}
