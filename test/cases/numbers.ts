import type { ChoreoCase } from './choreo-case.ts';

function inRange(name: string, value: string | undefined, low: number, high: number, integer: boolean): void {
  const number = Number(value);
  if (value === undefined || value.trim() === '' || Number.isNaN(number)) throw new Error(`${name} ${value} is not a number`);
  if (integer && !Number.isInteger(number)) throw new Error(`${name} ${value} is not a whole number`);
  if (number < low || number > high) throw new Error(`${name} ${value} is outside ${low}…${high}`);
}

const drawn = new Set<string>();

export const cases: ChoreoCase[] = [
  {
    family: 'Numbers',
    choreo: 'GenerateRandom',
    inputs: {},
    outputs: {
      SignedDecimal: /^-?0(\.\d+)?(e-\d+)?$|^-?\d(\.\d+)?e-\d+$/,
      SignedInteger: /^-?\d{1,10}$/,
      UnsignedDecimal: /^0(\.\d+)?$|^\d(\.\d+)?e-\d+$/,
      UnsignedInteger: /^\d{1,10}$/,
    },
  },
  ...[1, 2].map(
    (draw): ChoreoCase => ({
      family: 'Numbers',
      choreo: 'GenerateRandom',
      name: `draw ${draw}`,
      inputs: {},
      check: (outputs) => {
        inRange('SignedDecimal', outputs.SignedDecimal, -0.5, 0.5, false);
        inRange('SignedInteger', outputs.SignedInteger, -2147483648, 2147483647, true);
        inRange('UnsignedDecimal', outputs.UnsignedDecimal, 0, 1, false);
        inRange('UnsignedInteger', outputs.UnsignedInteger, 0, 4294967295, true);
        // Two draws alike in all four numbers would mean nothing is random.
        const all = JSON.stringify(outputs);
        if (drawn.has(all)) throw new Error(`the same numbers were drawn twice: ${all}`);
        drawn.add(all);
      },
    }),
  ),
];
