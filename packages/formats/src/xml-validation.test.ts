import { describe, expect, it } from 'vitest';
import { validateXmlDocument } from './xml-validation.ts';

describe('validateXmlDocument', () => {
  it('answers the empty string for a valid document, the problems otherwise', async () => {
    expect(await validateXmlDocument({ xml: '<a/>', xsd: '' })).toBe('');
    expect(await validateXmlDocument({ xml: '<a>', xsd: '' })).toMatch(/^line 1: parser error : /);
  });

  it('reports at most ten problems, and how many more there were', async () => {
    const xsd =
      '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="r"><xs:complexType><xs:sequence><xs:element name="n" type="xs:integer" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element></xs:schema>';
    const xml = `<r>\n${'<n>x</n>\n'.repeat(25)}</r>`;
    const lines = (await validateXmlDocument({ xml, xsd })).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^line 2: .*'x' is not a valid value of the atomic type 'xs:integer'/);
    expect(lines[10]).toBe('… and 15 more');
  });

  it('fails, without retry, when libxml2 needs more memory than it is given', async () => {
    const xml = `<r>${'<a/>'.repeat(1_000_000)}</r>`;
    await expect(validateXmlDocument({ xml, xsd: '' }, 16)).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: 'validating the XML needed more than 16 MiB',
    });
  });
});
