import { describe, expect, it } from 'vitest';
import { MAX_XML_LENGTH } from '@ces/formats';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';

const check = async (format: string, text: string) => ((await runStep('validation.format', { text, format })) as { result: string }).result;

const XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="order">
    <xs:complexType>
      <xs:sequence><xs:element name="qty" type="xs:positiveInteger" maxOccurs="unbounded"/></xs:sequence>
      <xs:attribute name="id" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>`;

describe('validation.format', () => {
  it('email addresses', async () => {
    for (const valid of ['a@example.com', 'first.last+tag@mail.example.co.uk', "o'neil@x-y.io", 'UPPER@EXAMPLE.ORG']) {
      expect(await check('email', valid), valid).toBe('valid');
    }
    for (const invalid of [
      '',
      'plain',
      'a@b',
      '@example.com',
      'a@example.',
      'a..b@example.com',
      '.a@example.com',
      'a@-x.com',
      'a b@example.com',
      'zoë@example.com',
      `${'a'.repeat(250)}@example.com`,
    ]) {
      expect(await check('email', invalid), invalid).toBe('invalid');
    }
  });

  it('postal codes of each country', async () => {
    const cases: [string, string[], string[]][] = [
      ['canadian-postal-code', ['K1A 0B1', 'k1a0b1', 'H0H-0H0'], ['K1A 0B', 'D1A 0B1', 'K1A  0B1', '12345']],
      ['dutch-postal-code', ['1234 AB', '1234ab', '9999ZZ'], ['0123 AB', '1234 SA', '123 AB', '1234 A1']],
      ['german-postal-code', ['10115', '01067', '99998'], ['00123', '1234', '123456', '1O115']],
      ['russian-postal-code', ['101000', '690000'], ['012345', '10100', '1010000']],
      [
        'uk-postal-code',
        ['SW1A 1AA', 'EC1A 1BB', 'W1A 0AX', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'GIR 0AA', 'SW1A1AA'],
        ['sw1a 1aa', 'Q1 1AA', 'SW1A 1AAA', '12345', 'SW1A 1CA'],
      ],
      ['us-postal-code', ['12345', '12345-6789'], ['1234', '123456', '12345-678', '12345 6789', 'ABCDE']],
    ];
    for (const [format, valid, invalid] of cases) {
      for (const value of valid) expect(await check(format, value), `${format} ${value}`).toBe('valid');
      for (const value of [...invalid, '', ` ${valid[0]}`, `${valid[0]}\n`])
        expect(await check(format, value), `${format} ${JSON.stringify(value)}`).toBe('invalid');
    }
  });

  it('refuses an unknown format', async () => {
    await expect(runStep('validation.format', { text: 'x', format: 'french-postal-code' })).rejects.toThrow();
  });
});

describe('validation.password', () => {
  const password = async (args: Record<string, string>) => ((await runStep('validation.password', args)) as { result: string }).result;

  it('needs a digit, a lower-case and an upper-case letter, 6 to 14 characters by default', async () => {
    expect(await password({ password: 'Secret12' })).toBe('valid');
    expect(await password({ password: 'Ab1def' })).toBe('valid');
    expect(await password({ password: 'Ab1de' })).toBe('invalid');
    expect(await password({ password: 'Ab1defghijklmn' })).toBe('valid');
    expect(await password({ password: 'Ab1defghijklmno' })).toBe('invalid');
    expect(await password({ password: 'secret12' })).toBe('invalid');
    expect(await password({ password: 'SECRET12' })).toBe('invalid');
    expect(await password({ password: 'SecretOne' })).toBe('invalid');
    expect(await password({ password: '' })).toBe('invalid');
  });

  it('counts characters, not UTF-16 units, within the lengths given', async () => {
    expect(await password({ password: 'Ab1😀😀', minLength: '5', maxLength: '5' })).toBe('valid');
    expect(await password({ password: 'Ab1', minLength: '3', maxLength: '3' })).toBe('valid');
    expect(await password({ password: 'Ab1'.repeat(1_000_000), maxLength: '10000' })).toBe('invalid');
  });

  it('refuses lengths that are not whole numbers or that contradict each other', async () => {
    await expect(runStep('validation.password', { password: 'x', minLength: 'six' })).rejects.toThrow(/whole number/);
    await expect(runStep('validation.password', { password: 'x', minLength: '10', maxLength: '8' })).rejects.toThrow(/greater than the maximum/);
  });
});

describe('validation.json', () => {
  it('tells well-formed JSON from the rest, saying what is wrong', async () => {
    for (const json of ['{"a":[1,2,{"b":null}]}', '"text"', '42', ' [] ', '{"é":"😀"}']) {
      expect(await runStep('validation.json', { json })).toEqual({ result: 'valid', error: '' });
    }
    expect(await runStep('validation.json', { json: '{"a": 1,,}' })).toEqual({ result: 'invalid', error: expect.stringMatching(/position 8/) });
    expect(await runStep('validation.json', { json: '' })).toEqual({ result: 'invalid', error: expect.stringMatching(/end of JSON input/) });
    expect(await runStep('validation.json', { json: "{'a': 1}" })).toMatchObject({ result: 'invalid' });
    expect(await runStep('validation.json', { json: '['.repeat(1_000_000) })).toMatchObject({ result: 'invalid' });
  });
});

describe('validation.xml', () => {
  const validate = (xml: string, xsd?: string) => runStep('validation.xml', xsd === undefined ? { xml } : { xml, xsd });

  it('checks well-formedness without a schema', async () => {
    expect(await validate('<a><b>héllo ☃</b></a>')).toEqual({ result: 'valid', error: '' });
    expect(await validate('<a><b></a>')).toEqual({ result: 'invalid', error: expect.stringMatching(/^line 1: parser error : .*mismatch/) });
    expect(await validate('')).toEqual({ result: 'invalid', error: expect.stringMatching(/Document is empty/) });
    expect(await validate('{"not":"xml"}')).toMatchObject({ result: 'invalid' });
  });

  it('validates against an XSD, reporting each problem with its line', async () => {
    expect(await validate('<order id="7"><qty>1</qty><qty>2</qty></order>', XSD)).toEqual({ result: 'valid', error: '' });
    const invalid = (await validate('<order>\n<qty>0</qty>\n<qty>x</qty>\n</order>', XSD)) as { result: string; error: string };
    expect(invalid.result).toBe('invalid');
    expect(invalid.error.split('\n')).toEqual([
      expect.stringMatching(/^line 1: .*attribute 'id' is required/),
      expect.stringMatching(/^line 2: .*'0' is not a valid value/),
      expect.stringMatching(/^line 3: .*'x' is not a valid value/),
    ]);
  });

  it('fails the step on a schema that does not compile', async () => {
    await expect(validate('<a/>', '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element/></xs:schema>')).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: expect.stringMatching(/^the XSD is not valid: line 1: .*'name' is required/),
    });
    await expect(validate('<a/>', 'not a schema')).rejects.toThrow(/^the XSD is not valid/);
  });

  it('reaches neither the host files nor the network, and expands no external entity', async () => {
    const including = (location: string) =>
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:include schemaLocation="${location}"/><xs:element name="a"/></xs:schema>`;
    await expect(validate('<a/>', including('/etc/hostname'))).rejects.toThrow(/Failed to load the document '\/etc\/hostname'/);
    await expect(validate('<a/>', including('http://127.0.0.1:1/x.xsd'))).rejects.toThrow(/Failed to load the document/);
    const entity = '<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/hostname">]><a>&e;</a>';
    expect(
      await validate(entity, '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="a" type="xs:string" fixed=""/></xs:schema>'),
    ).toMatchObject({
      result: 'valid',
    });
  });

  it('handles the largest document, and refuses a larger one before parsing', async () => {
    const item = '<qty>12345</qty>';
    const body = item.repeat(Math.floor((MAX_XML_LENGTH - 100) / item.length));
    expect(await validate(`<order id="1">${body}</order>`, XSD)).toEqual({ result: 'valid', error: '' });
    await expect(validate(`<a>${'x'.repeat(MAX_XML_LENGTH)}</a>`)).rejects.toThrow(/at most/);
  });

  it('runs in the sandbox: a cancelled run stops it at once', async () => {
    const cancel = new AbortController();
    const running = runStep('validation.xml', { xml: `<a>${'<b/>'.repeat(1_000_000)}</a>` }, testLibraryOptions, cancel.signal);
    setImmediate(() => cancel.abort('cancelled'));
    await expect(running).rejects.toMatchObject({ name: 'StepAbortedError' });
    expect(await runStep('validation.xml', { xml: '<a/>' })).toEqual({ result: 'valid', error: '' });
  });
});
