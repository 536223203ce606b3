/**
 * iCalendar (RFC 5545) text: escaping (3.3.11), line folding at 75 octets (3.1) and CRLF line
 * ends. Folding counts UTF-8 octets and never splits a multi-byte character.
 */

/** TEXT value: backslash, semicolon, comma and newlines escaped. */
export const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

const encoder = new TextEncoder();

/** One content line folded: at most 75 octets per physical line, continuation lines start with a space. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const ch of line) {
    const n = encoder.encode(ch).length;
    if (octets + n > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = 74; // the leading space of a continuation line is one of its 75 octets
    }
    current += ch;
    octets += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** Content lines → the calendar's text: each folded, each ending CRLF. */
export const icalText = (lines: string[]) => lines.map((l) => `${foldLine(l)}\r\n`).join('');

/** An instant as a UTC DATE-TIME: 20261205T223000Z. */
export const icalUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** A date (YYYY-MM-DD) as a DATE value: 20261205. */
export const icalDate = (date: string) => date.replace(/-/g, '');
