import { describe, expect, it } from 'vitest';
import { parseXml, XML_LIMITS, XmlInputError } from './xml.ts';
import { must } from '@ces/testing';

const nested = (depth: number, between = '') => `${'<a>'.repeat(depth)}${between}x${'</a>'.repeat(depth)}`;

describe('parseXml', () => {
  it('parses ordinary run bodies', () => {
    expect(parseXml('<inputs><input><name>A</name><value>1 &lt; 2</value></input></inputs>')).toEqual({
      inputs: [{ input: [{ name: ['A'], value: ['1 < 2'] }] }],
    });
  });

  it('bounds nesting and element count before parsing', () => {
    expect(() => parseXml(nested(XML_LIMITS.maxDepth))).not.toThrow();
    expect(() => parseXml(nested(XML_LIMITS.maxDepth + 1))).toThrow(/nested deeper than 32/);
    expect(() => parseXml(`<r>${'<e/>'.repeat(XML_LIMITS.maxElements)}</r>`)).toThrow(/more than 10000 elements/);
  });

  it('counts elements of any name, and reads a tag to its end outside quoted values', () => {
    // Non-ASCII names were not counted, and `/>` inside a quoted value passed for self-closing.
    expect(() => parseXml(`<r>${'<é/>'.repeat(XML_LIMITS.maxElements)}</r>`)).toThrow(/more than 10000 elements/);
    expect(() => parseXml(`${'<é>'.repeat(XML_LIMITS.maxDepth + 1)}x${'</é>'.repeat(XML_LIMITS.maxDepth + 1)}`)).toThrow(/nested deeper than 32/);
    expect(() => parseXml(`${'<a x="/>">'.repeat(XML_LIMITS.maxDepth + 1)}x${'</a>'.repeat(XML_LIMITS.maxDepth + 1)}`)).toThrow(/nested deeper than 32/);
    expect(() => parseXml(`${"<a x='>'>".repeat(XML_LIMITS.maxDepth + 1)}x${'</a>'.repeat(XML_LIMITS.maxDepth + 1)}`)).toThrow(/nested deeper than 32/);
    expect(parseXml('<inputs><input a="1 > 0" b=\'/>\'><name>é</name><value>v</value></input></inputs>')).toEqual({
      inputs: [{ input: [{ name: ['é'], value: ['v'] }] }],
    });
  });

  it('refuses characters XML does not allow, written or referred to, and keeps those it does', () => {
    for (const bad of ['&#0;', '&#x0;', '&#xD800;', '&#55296;', '&#x110000;', '&#xFFFE;', '&#1;', '\u0000', '\u0001', '\u001b', '\uFFFF', '&#99999999999;']) {
      expect(() => parseXml(`<inputs><input><name>A</name><value>${bad}</value></input></inputs>`), JSON.stringify(bad)).toThrow(XmlInputError);
    }
    const kept = parseXml('<r>&#9;&#xA;&#13;&#x20;&#xD7FF;&#xE000;&#xFFFD;&#x10000;&#x10FFFF;&#233;\t\r\n</r>');
    expect(kept).toEqual({ r: ['\t\n\r \uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}é\t\n'] });
  });

  it('counts nothing inside comments, CDATA or processing instructions', () => {
    // Closing tags hidden in a comment once lowered the count, letting deeper nesting through.
    const hidden = `<!--${'</a>'.repeat(10)}--><![CDATA[</a></a>]]><?pi </a> ?>`;
    expect(() => parseXml(nested(XML_LIMITS.maxDepth + 1, hidden))).toThrow(/nested deeper than 32/);
    expect(parseXml(`<r><![CDATA[<a><b>]]></r>`)).toEqual({ r: ['<a><b>'] });
  });

  it('refuses broken markup in one pass, however it is broken', () => {
    // Each of these made the former pattern backtrack for seconds to minutes (cubic in the length).
    for (const broken of [
      '<a'.repeat(100_000),
      `<a ${'x'.repeat(100_000)}`,
      '<!--'.repeat(50_000),
      `<${'a<'.repeat(100_000)}>`,
      `<a x="${'<a '.repeat(100_000)}`,
      "<a '>".repeat(100_000),
    ]) {
      expect(() => parseXml(broken)).toThrow(XmlInputError);
    }
  });

  it("quotes the parser's complaint only so far", () => {
    const longName = 'n'.repeat(5000);
    const failure = (() => {
      try {
        parseXml(`<${longName}>x</other>`);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(failure).toBeInstanceOf(XmlInputError);
    expect(must(failure).message.length).toBeLessThan(260);
  });
});
