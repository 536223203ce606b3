import { uniquenessForm } from './text';

/**
 * Uniqueness key of a catalog name: trimmed, Unicode-normalised (NFKC, without zero-width characters
 * or stray combining marks: see uniquenessForm), lowercased (so "Educação" = "EDUCAÇÃO", and a name
 * with an invisible character added is the same name).
 */
export const nameKey = (s: string) => uniquenessForm(s).trim().toLocaleLowerCase('pt-BR');
