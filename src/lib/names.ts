/** Uniqueness key of a catalog name: trimmed, Unicode-normalised, lowercased (so "Educação" = "EDUCAÇÃO"). */
export const nameKey = (s: string) => s.normalize('NFC').trim().toLocaleLowerCase('pt-BR');
