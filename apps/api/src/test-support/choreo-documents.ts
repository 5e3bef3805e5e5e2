/** Choreo documents the tests of accounts' own Choreos write. */

/** Says `<Greeting>, <Name>`; `greeting` tells one version from another. */
export function greeterDocument(greeting: string, extra: Record<string, unknown> = {}) {
  return {
    description: `Greets someone with "${greeting}".`,
    inputs: { Name: { description: 'Who to greet.', required: true } },
    outputs: { Greeting: { description: 'The greeting.', value: '{{steps.say.text}}' } },
    steps: [{ id: 'say', kind: 'noop', args: { text: `${greeting}, {{inputs.Name}}` } }],
    ...extra,
  };
}

export const runBody = (inputs: Record<string, string>) => JSON.stringify({ inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) });
