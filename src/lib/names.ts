import { uniquenessForm } from './text';

/**
 * Uniqueness key of a catalog name: trimmed, Unicode-normalised (NFKC, without zero-width characters
 * or stray combining marks: see uniquenessForm), lowercased (so "Educação" = "EDUCAÇÃO", and a name
 * with an invisible character added is the same name).
 */
export const nameKey = (s: string) => uniquenessForm(s).trim().toLocaleLowerCase('pt-BR');

/**
 * Search form of a place name (cities: docs/decisions.md#d23): no accents, lowercased, apostrophes
 * dropped and hyphens read as spaces, spaces collapsed ("São João d'Aliança" -> "sao joao dalianca").
 * The migration that loads `cidades` stores it (scripts/cidades-migration.ts),
 * so a query folded the same way compares with `=`/`>=` on an index.
 */
export const searchKey = (s: string) =>
  uniquenessForm(s)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('pt-BR')
    .replace(/['’`´]/g, '')
    .replace(/[-\s]+/g, ' ')
    .trim();

/** Matching form of a free text against a catalog name (D23's `vincular`): searchKey without any space. */
export const matchKey = (s: string) => searchKey(s).replace(/ /g, '');
