import { round } from './latency-summary.ts';
import { must } from '@ces/testing';

/**
 * A target, checked by the benchmark's own report (never by the test suite):
 * - `at-least-ratio`: value ≥ factor × baseline (throughput);
 * - `at-most-baseline-plus`: value ≤ baseline + amount (latency);
 * - `at-most`: value ≤ limit, no baseline needed.
 */
export type Target = { kind: 'at-least-ratio'; factor: number } | { kind: 'at-most-baseline-plus'; amount: number } | { kind: 'at-most'; limit: number };

export interface Row {
  scenario: string;
  figure: string;
  unit: string;
  value: number;
  baseline?: { label: string; value: number };
  target?: Target;
  /** What else was measured alongside, kept in the JSON. */
  details?: Record<string, unknown>;
}

export interface EvaluatedRow extends Row {
  /** value / baseline, when there is a baseline. */
  ratio?: number;
  targetText?: string;
  pass?: boolean;
}

export function evaluate(row: Row): EvaluatedRow {
  const ratio = row.baseline && row.baseline.value !== 0 ? round(row.value / row.baseline.value, 3) : undefined;
  const evaluated: EvaluatedRow = { ...row, ...(ratio !== undefined ? { ratio } : {}) };
  const target = row.target;
  if (!target) return evaluated;
  switch (target.kind) {
    case 'at-least-ratio':
      return { ...evaluated, targetText: `≥ ${target.factor}× baseline`, ...(ratio !== undefined ? { pass: ratio >= target.factor } : {}) };
    case 'at-most-baseline-plus':
      return {
        ...evaluated,
        targetText: `≤ baseline + ${target.amount} ${row.unit}`,
        ...(row.baseline ? { pass: row.value <= row.baseline.value + target.amount } : {}),
      };
    case 'at-most':
      return { ...evaluated, targetText: `≤ ${target.limit} ${row.unit}`, pass: row.value <= target.limit };
  }
}

function formatNumber(value: number): string {
  if (Math.abs(value) >= 100) return String(Math.round(value));
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** A plain-text table: scenario, figure, value, baseline, ratio, target, result. */
export function formatTable(rows: EvaluatedRow[]): string {
  const header = ['scenario', 'figure', 'value', 'baseline', 'ratio', 'target', 'result'];
  const lines = rows.map((row) => [
    row.scenario,
    row.figure,
    `${formatNumber(row.value)} ${row.unit}`,
    row.baseline ? `${formatNumber(row.baseline.value)} (${row.baseline.label})` : '—',
    row.ratio !== undefined ? `${row.ratio.toFixed(2)}×` : '—',
    row.targetText ?? '—',
    row.pass === undefined ? '—' : row.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => must(line[column]).length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(must(widths[column])))
      .join(' │ ')
      .trimEnd();
  return [render(header), widths.map((width) => '─'.repeat(width)).join('─┼─'), ...lines.map(render)].join('\n');
}

/** The same table as Markdown, for docs/performance.md. */
export function formatMarkdown(rows: EvaluatedRow[]): string {
  const lines = ['| Scenario | Figure | Value | Baseline | Ratio | Target | Result |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const row of rows) {
    lines.push(
      `| ${row.scenario} | ${row.figure} | ${formatNumber(row.value)} ${row.unit} | ${row.baseline ? `${formatNumber(row.baseline.value)} (${row.baseline.label})` : '—'} | ${
        row.ratio !== undefined ? `${row.ratio.toFixed(2)}×` : '—'
      } | ${row.targetText ?? '—'} | ${row.pass === undefined ? '—' : row.pass ? 'PASS' : 'FAIL'} |`,
    );
  }
  return lines.join('\n');
}
