import type { ChoreoCase } from './choreo-case.ts';

const family = 'Validation';
const XSD =
  '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="order"><xs:complexType><xs:sequence>' +
  '<xs:element name="qty" type="xs:positiveInteger" maxOccurs="unbounded"/></xs:sequence>' +
  '<xs:attribute name="id" type="xs:string" use="required"/></xs:complexType></xs:element></xs:schema>';
/** Near the 5 MiB limit of a step's text. */
const LARGE = 5 * 1024 * 1024 - 16;

/** A JSON array of objects just under LARGE characters. */
function largeJson(): string {
  const item = '{"name":"é😀","n":1},';
  return `[${item.repeat(Math.floor((LARGE - 2) / item.length)).slice(0, -1)}]`;
}

const zipCases = (choreo: string, valid: string, ...invalid: string[]): ChoreoCase[] => [
  { family, choreo, name: `valid ${valid}`, inputs: { ZipCode: valid }, outputs: { Match: 'valid' } },
  ...invalid.map((zip): ChoreoCase => ({ family, choreo, name: `invalid ${zip}`, inputs: { ZipCode: zip }, outputs: { Match: 'invalid' } })),
];

export const cases: ChoreoCase[] = [
  ...zipCases('CanadianPostalCodes', 'K1A 0B1', 'K1A 0B', 'D1A 0B1'),
  ...zipCases('DutchPostalCodes', '1012 AB', '1012 SS', '0123 AB'),
  ...zipCases('GermanPostalCodes', '10115', '1011'),
  ...zipCases('RussianPostalCodes', '101000', '10100', '10100A'),
  ...zipCases('UKPostalCodes', 'SW1A 1AA', 'sw1a 1aa'),
  ...zipCases('USPostalCodes', '12345-6789', '1234', '12345-678'),
  { family, choreo: 'EmailAddress', inputs: { EmailAddress: 'first.last+tag@mail.example.org' }, outputs: { Match: 'valid' } },
  { family, choreo: 'EmailAddress', name: 'no domain', inputs: { EmailAddress: 'someone@' }, outputs: { Match: 'invalid' } },
  { family, choreo: 'EmailAddress', name: 'an empty value', inputs: { EmailAddress: '' }, outputs: { Match: 'invalid' } },
  { family, choreo: 'JSON', inputs: { JSON: '{"a":[1,"é",null]}' }, outputs: { Result: 'valid', Error: '' } },
  { family, choreo: 'JSON', name: 'malformed, saying where', inputs: { JSON: '{"a": 1,,}' }, outputs: { Result: 'invalid', Error: /position 8/ } },
  { family, choreo: 'JSON', name: 'an empty text', inputs: { JSON: '' }, outputs: { Result: 'invalid', Error: /./ } },
  { family, choreo: 'JSON', name: 'a large document', inputs: { JSON: largeJson() }, outputs: { Result: 'valid', Error: '' }, only: 'engine' },
  {
    family,
    choreo: 'JSON',
    name: 'a large document cut short',
    inputs: { JSON: largeJson().slice(0, -1) },
    outputs: { Result: 'invalid', Error: /JSON/ },
    only: 'engine',
  },
  { family, choreo: 'PasswordCriteria', name: 'default lengths', inputs: { Password: 'Secret12' }, outputs: { Match: 'valid' } },
  { family, choreo: 'PasswordCriteria', name: 'over the default 14', inputs: { Password: 'Secret12Secret1' }, outputs: { Match: 'invalid' } },
  { family, choreo: 'PasswordCriteria', name: 'under the default 6', inputs: { Password: 'Ab1de' }, outputs: { Match: 'invalid' } },
  { family, choreo: 'PasswordCriteria', name: 'lengths given', inputs: { Password: 'Ab1', MinLength: '3', MaxLength: '3' }, outputs: { Match: 'valid' } },
  { family, choreo: 'PasswordCriteria', name: 'no upper-case letter', inputs: { Password: 'secret12' }, outputs: { Match: 'invalid' } },
  {
    family,
    choreo: 'PasswordCriteria',
    name: 'contradicting lengths',
    inputs: { Password: 'Secret12', MinLength: '10', MaxLength: '8' },
    error: /^check: invalid arguments: .*minimum length is greater than the maximum/,
  },
  { family, choreo: 'XML', name: 'well-formed', inputs: { XMLFile: '<a><b>héllo ☃</b></a>' }, outputs: { Result: 'valid', Error: '' } },
  {
    family,
    choreo: 'XML',
    name: 'malformed, saying where',
    inputs: { XMLFile: '<a>\n<b></a>' },
    outputs: { Result: 'invalid', Error: /^line 2: parser error : .*mismatch/ },
  },
  {
    family,
    choreo: 'XML',
    name: 'valid against an XSD',
    inputs: { XMLFile: '<order id="7"><qty>2</qty></order>', XSDFile: XSD },
    outputs: { Result: 'valid', Error: '' },
  },
  {
    family,
    choreo: 'XML',
    name: 'invalid against an XSD',
    inputs: { XMLFile: '<order id="7"><qty>x</qty></order>', XSDFile: XSD },
    outputs: { Result: 'invalid', Error: /^line 1: .*'x' is not a valid value/ },
  },
  {
    family,
    choreo: 'XML',
    name: 'invalid against an XSD in two ways',
    inputs: { XMLFile: '<order><qty>0</qty></order>', XSDFile: XSD },
    outputs: { Result: 'invalid', Error: /^line 1: .*'id' is required.*\nline 1: .*'0' is not a valid value/ },
  },
  {
    family,
    choreo: 'XML',
    name: 'an XSD that does not compile',
    inputs: { XMLFile: '<a/>', XSDFile: '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element/></xs:schema>' },
    error: /^validate: the XSD is not valid: line 1: .*'name' is required/,
  },
  {
    family,
    choreo: 'XML',
    name: 'an XSD that is malformed XML',
    inputs: { XMLFile: '<a/>', XSDFile: '<not-a-schema' },
    error: /^validate: the XSD is not valid/,
  },
  { family, choreo: 'XML', name: 'an XSD that is not XML', inputs: { XMLFile: '<a/>', XSDFile: '{"not":"xml"}' }, error: /^validate: the XSD is not valid/ },
];
