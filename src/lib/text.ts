/**
 * Unicode hygiene of text fields (security review 7).
 *
 * - Stored text is NFC (one spelling per accented letter) without the invisible characters that have
 *   no legitimate use inside a field (zero-width space, word joiner, byte-order mark). Joiners
 *   (U+200C/U+200D) stay in stored text: emoji sequences and some scripts need them.
 * - Control characters (C0 but tab, newline and carriage return; DEL; C1) and the bidirectional
 *   embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which can make a name read
 *   differently from what it is, are refused: the field builders answer 400 naming the field.
 * - The uniqueness key of a name (`nameKey` in names.ts) is stricter: see `uniquenessForm`.
 */

/**
 * The refused characters as the inside of a regex character class, written with escapes so the same
 * text serves this check and the `pattern` the OpenAPI document states (lib/fields.ts).
 */
export const FORBIDDEN_CLASS =
  '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
/** What cleanText removes, likewise. */
export const INVISIBLE_CLASS = '\\u200b\\u2060\\ufeff';
const FORBIDDEN = new RegExp(`[${FORBIDDEN_CLASS}]`, 'u');
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

export const FORBIDDEN_TEXT_MESSAGE = 'não pode conter caracteres de controle nem de inversão de direção do texto';

/** True when the text holds no control or bidirectional-override character. */
export const hasNoForbiddenChars = (s: string) => !FORBIDDEN.test(s);

/** What a text field stores: NFC, without zero-width spaces, word joiners and byte-order marks. */
export const cleanText = (s: string) => s.normalize('NFC').replace(INVISIBLE, '');

/**
 * The form two names are compared in: NFKC (compatibility forms such as fullwidth letters or
 * ligatures fold into the plain ones), every format character (zero-width joiners, directional
 * marks) and every combining mark left over after composition removed. A precomposed accented
 * letter ("ç", "ã") stays itself, so "Educação" keeps the key it always had; a mark that composes
 * with nothing (a stroke overlay, a second accent) only disguises a name, and is dropped.
 */
export const uniquenessForm = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/\p{M}/gu, '');
