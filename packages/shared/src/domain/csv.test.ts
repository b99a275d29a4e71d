import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.js';

describe('CSV export', () => {
  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1 555 0100')).toBe(`"'+1 555 0100"`);
    expect(csvCell('-1+2')).toBe(`"'-1+2"`);
    expect(csvCell('-A1')).toBe(`"'-A1"`);
    expect(csvCell('-2-3')).toBe(`"'-2-3"`);
    expect(csvCell('=1')).toBe(`"'=1"`);
    expect(csvCell('+x')).toBe(`"'+x"`);
    expect(csvCell('@x')).toBe(`"'@x"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\tcmd')).toBe(`"'\tcmd"`);
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
  });
  it('quotes a cell that a `;` locale would split into a formula', () => {
    expect(csvCell("Ann;=cmd|' /C calc'!A0")).toBe(`"Ann;=cmd|' /C calc'!A0"`);
    expect(csvCell('=1;=2')).toBe(`"'=1;=2"`);
    expect(toCsv(['name'], [["Ann;=cmd|' /C calc'!A0"]])).toBe(
      `"name"\r\n"Ann;=cmd|' /C calc'!A0"\r\n`,
    );
  });
  it('leaves numbers alone, negative ones too: a number is not a formula', () => {
    expect(csvCell('-3.5')).toBe('"-3.5"');
    expect(csvCell('-2')).toBe('"-2"');
    expect(csvCell('0.25')).toBe('"0.25"');
    expect(csvCell(-3.5)).toBe('"-3.5"');
    expect(csvCell(-1e-7)).toBe('"-1e-7"');
    expect(csvCell(42)).toBe('"42"');
    expect(toCsv(['temp'], [[-3.5], ['-12']])).toBe('"temp"\r\n"-3.5"\r\n"-12"\r\n');
  });
  it('still neutralises what only looks like a number', () => {
    expect(csvCell('-3.')).toBe(`"'-3."`);
    expect(csvCell('-.5')).toBe(`"'-.5"`);
    expect(csvCell('- 3')).toBe(`"'- 3"`);
    expect(csvCell('-3\n=1')).toBe(`"'-3\n=1"`);
    expect(csvCell(-Infinity)).toBe(`"'-Infinity"`);
  });
  it('quotes every cell, doubling the quotes inside', () => {
    expect(csvCell('Rex, the dog')).toBe('"Rex, the dog"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('Beagle')).toBe('"Beagle"');
    expect(csvCell(null)).toBe('""');
  });
  it('joins rows with CRLF after a header', () => {
    expect(toCsv(['a', 'b'], [['1', '=2']])).toBe(`"a","b"\r\n"1","'=2"\r\n`);
  });
});
