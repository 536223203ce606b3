/**
 * tsx scripts/cidades-migration.ts > drizzle/<NNNN>_cidades_data.sql
 *
 * Writes the SQL that loads `cidades` (docs/decisions.md#d23) from data/municipios.csv and
 * data/estados.csv (MIT, see data/LICENSE-municipios): one multi-row INSERT per 500 cities, with
 * literal values (a migration binds no parameters), so the 5,570 rows apply in a dozen statements.
 * Kept so the load can be reproduced or checked; the migration it wrote is never edited once landed.
 */
import { readFileSync } from 'node:fs';
import { searchKey } from '../src/lib/names.ts';

const CHUNK = 500;
const read = (name: string) =>
  readFileSync(new URL(`../data/${name}`, import.meta.url), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(','));

// codigo_uf,uf,nome,latitude,longitude,regiao (no field holds a comma)
const ufs = new Map(read('estados.csv').map(([codigo, uf]) => [codigo!, uf!]));
// codigo_ibge,nome,latitude,longitude,capital,codigo_uf,siafi_id,ddd,fuso_horario
const rows = read('municipios.csv').map(([codigo, nome, lat, lon, , codigoUf]) => {
  const uf = ufs.get(codigoUf!);
  if (!/^\d{7}$/.test(codigo!) || !uf || !Number.isFinite(Number(lat)) || !Number.isFinite(Number(lon)))
    throw new Error(`bad row: ${codigo},${nome}`);
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  return `(${codigo},${q(nome!)},${q(searchKey(nome!))},${q(uf)},${Number(lat)},${Number(lon)})`;
});

const out = [
  `-- The 5,570 Brazilian municipalities (docs/decisions.md#d23), written by scripts/cidades-migration.ts from`,
  `-- data/municipios.csv (MIT, Copyright (c) 2016 Kelvin S. do Prado: data/LICENSE-municipios).`,
];
for (let i = 0; i < rows.length; i += CHUNK) {
  if (i > 0) out.push('--> statement-breakpoint');
  out.push(
    'INSERT INTO `cidades` (`codigo_ibge`, `nome`, `nome_key`, `uf`, `latitude`, `longitude`) VALUES',
    rows.slice(i, i + CHUNK).join(',\n') + ';',
  );
}
// Every word start of every name (db/schema/lugares.ts cidadesBusca), from the rows just written.
out.push(
  '--> statement-breakpoint',
  'INSERT INTO `cidades_busca` (`chave`, `codigo_ibge`, `posicao`)',
  'WITH RECURSIVE w(codigo, resto, posicao) AS (',
  '  SELECT `codigo_ibge`, `nome_key`, 0 FROM `cidades`',
  "  UNION ALL SELECT codigo, substr(resto, instr(resto, ' ') + 1), posicao + 1 FROM w WHERE instr(resto, ' ') > 0",
  ')',
  'SELECT resto, codigo, posicao FROM w;',
);
process.stdout.write(out.join('\n') + '\n');
