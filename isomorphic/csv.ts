/** Spreadsheet-safe CSV, shared by every export (received payments, the audit log, the sponsor directory). */

/**
 * Text someone else typed (a name, an email, a message) is neutralised before
 * a spreadsheet can read it as a formula: a leading = + - @ (or tab / CR,
 * which some programs skip before one) gets a ' in front (OWASP's advice).
 * Figures we write ourselves are left as numbers.
 */
export function safeText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export const csvLine = (cells: readonly string[]) => cells.map(csvCell).join(",");
