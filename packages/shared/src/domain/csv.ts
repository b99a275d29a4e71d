/** A plain decimal number, negative or not: a spreadsheet reads it as a value, never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell, always in double quotes. A cell a spreadsheet would read as a formula
 * (starting with = + - @, TAB or CR) gets a leading ', so opening the export can never run
 * anything. The quotes keep a cell one cell in every locale: where `;` separates the columns,
 * `Ann;=cmd|' /C calc'!A0` unquoted would split into `Ann` and a formula. A negative number
 * such as -3.5 is not a formula and stays as it is (a number-typed value in exponent form, such
 * as -1e-7, too), so the export keeps it a number (spreadsheets read a quoted number as one).
 */
export function csvCell(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  const isNumber = typeof value === 'number' ? Number.isFinite(value) : PLAIN_NUMBER.test(s);
  if (!isNumber && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
