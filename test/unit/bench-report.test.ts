import { describe, expect, it } from 'vitest';
import { evaluateFigure, formatFigure, formatNumber } from '../bench/report.ts';

describe("benches' report line", () => {
  it('prints measured, floor, ratio, goal and met on one line', () => {
    const result = evaluateFigure({ name: 'agent idle RSS', measured: 57.94, unit: 'MB', floor: 42.1, floorWhat: 'bare Node', goal: { measuredAtMost: 60 } });
    expect(formatFigure(result)).toBe('bench | agent idle RSS | measured 57.9 MB | floor 42.1 MB (bare Node) | ratio 1.38 | goal ≤ 60 MB | met yes');
  });

  it('meets a goal only when every bound holds', () => {
    const figure = { name: 'x', unit: 'req/s', floor: 1000, floorWhat: 'bare Express', goal: { ratioAtLeast: 0.6, measuredAtLeast: 500 } };
    expect(evaluateFigure({ ...figure, measured: 700 }).met).toBe(true);
    expect(evaluateFigure({ ...figure, measured: 550 }).met).toBe(false);
    expect(evaluateFigure({ ...figure, floor: 400, measured: 450 }).met).toBe(false);
    expect(evaluateFigure({ ...figure, measured: Number.NaN }).met).toBe(false);
  });

  it('says a figure without a goal is neither met nor missed', () => {
    const result = evaluateFigure({ name: 'source', measured: 118, unit: 'MB', floor: 42, floorWhat: 'bare Node', goal: {} });
    expect(result.met).toBeNull();
    expect(formatFigure(result)).toMatch(/\| goal none \| met -$/);
  });

  it('keeps three significant digits without exponents', () => {
    expect([0.031_24, 1.384, 57.94, 28_512.3, 0].map(formatNumber)).toEqual(['0.0312', '1.38', '57.9', '28512', '0']);
  });
});
