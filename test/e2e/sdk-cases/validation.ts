import type { SdkCase } from '../../support/sdk-case.ts';

const XSD = [
  '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">',
  '<xs:element name="order"><xs:complexType>',
  '<xs:sequence><xs:element name="qty" type="xs:positiveInteger" maxOccurs="unbounded"/></xs:sequence>',
  '<xs:attribute name="id" type="xs:string" use="required"/>',
  '</xs:complexType></xs:element></xs:schema>',
].join('\n');

const zipCases = (choreo: string, valid: string, invalid: string): SdkCase[] => [
  { family: 'Validation', choreo, name: `valid ${valid}`, inputs: { ZipCode: valid }, expect: { Match: 'valid' } },
  { family: 'Validation', choreo, name: `invalid ${invalid}`, inputs: { ZipCode: invalid }, expect: { Match: 'invalid' } },
];

export const cases: SdkCase[] = [
  ...zipCases('CanadianPostalCodes', 'K1A 0B1', 'K1A 0B'),
  ...zipCases('DutchPostalCodes', '1012 AB', '1012 SS'),
  ...zipCases('GermanPostalCodes', '10115', '1011'),
  ...zipCases('RussianPostalCodes', '101000', '10100'),
  ...zipCases('UKPostalCodes', 'SW1A 1AA', 'sw1a 1aa'),
  ...zipCases('USPostalCodes', '12345-6789', '1234'),
  { family: 'Validation', choreo: 'EmailAddress', inputs: { EmailAddress: 'first.last+tag@mail.example.org' }, expect: { Match: 'valid' } },
  { family: 'Validation', choreo: 'EmailAddress', name: 'no domain', inputs: { EmailAddress: 'someone@' }, expect: { Match: 'invalid' } },
  { family: 'Validation', choreo: 'JSON', inputs: { JSON: '{"a":[1,"é",null]}' }, expect: { Result: 'valid' } },
  { family: 'Validation', choreo: 'JSON', name: 'malformed', inputs: { JSON: '{"a": 1,,}' }, expect: { Result: 'invalid' } },
  { family: 'Validation', choreo: 'PasswordCriteria', name: 'default lengths', inputs: { Password: 'Secret12' }, expect: { Match: 'valid' } },
  { family: 'Validation', choreo: 'PasswordCriteria', name: 'over the default 14', inputs: { Password: 'Secret12Secret1' }, expect: { Match: 'invalid' } },
  { family: 'Validation', choreo: 'PasswordCriteria', name: 'under the default 6', inputs: { Password: 'Ab1de' }, expect: { Match: 'invalid' } },
  {
    family: 'Validation',
    choreo: 'PasswordCriteria',
    name: 'lengths given',
    inputs: { Password: 'Ab1', MinLength: '3', MaxLength: '3' },
    expect: { Match: 'valid' },
  },
  { family: 'Validation', choreo: 'XML', name: 'well-formed', inputs: { XMLFile: '<a><b>héllo</b></a>' }, expect: { Result: 'valid', Error: '' } },
  {
    family: 'Validation',
    choreo: 'XML',
    name: 'malformed',
    inputs: { XMLFile: '<a>\n<b></a>' },
    check: ({ Result: result, Error: error }) => {
      if (result !== 'invalid') throw new Error(`Result is ${result}, not invalid`);
      if (!/^line 2: .*mismatch/.test(error ?? '')) throw new Error(`Error does not say what is wrong: ${error}`);
    },
  },
  {
    family: 'Validation',
    choreo: 'XML',
    name: 'valid against an XSD',
    inputs: { XMLFile: '<order id="7"><qty>2</qty></order>', XSDFile: XSD },
    expect: { Result: 'valid', Error: '' },
  },
  {
    family: 'Validation',
    choreo: 'XML',
    name: 'invalid against an XSD',
    inputs: { XMLFile: '<order id="7"><qty>x</qty></order>', XSDFile: XSD },
    check: ({ Result: result, Error: error }) => {
      if (result !== 'invalid') throw new Error(`Result is ${result}, not invalid`);
      if (!/^line 1: .*'x' is not a valid value/.test(error ?? '')) throw new Error(`Error does not say what is wrong: ${error}`);
    },
  },
  {
    family: 'Validation',
    choreo: 'XML',
    name: 'an XSD that does not compile',
    inputs: { XMLFile: '<a/>', XSDFile: '<not-a-schema' },
    error: /XSD is not valid/,
  },
];
