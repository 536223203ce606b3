import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import { cidades, deslocamentos } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { unknownCity } from './cidades';

/**
 * Travel time between two events' places (docs/decisions.md#d23): the region's matrix, kept by the
 * office, else a rule. No request ever calls a maps service.
 */

/** A point on the map, in degrees. */
export interface Point {
  latitude: number;
  longitude: number;
}

/** One side of a trip: its city (code and coordinates) and, optionally, the venue's own coordinates. */
export interface Place {
  cidade: (Point & { codigo_ibge: number }) | null;
  venue?: Point | null;
}

/** A matrix row as the rule reads it. */
export interface MatrixRow {
  origem_ibge: number;
  destino_ibge: number;
  minutos: number;
}

export type Fonte = 'matriz' | 'mesma_cidade' | 'estimado';
export interface Travel {
  minutos: number;
  /** Great-circle distance between the two points used (venues when both have them, else cities), 0.1 km. */
  distancia_km: number;
  fonte: Fonte;
}

/** Road distance over the great-circle one, and the average speed of the estimate (D23). */
export const ROAD_FACTOR = 1.3;
export const SPEED_KMH = 60;
const EARTH_KM = 6371;

/** The great-circle (haversine) distance in km. */
export function greatCircleKm(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** km x 1.3 at 60 km/h, in minutes rounded up to a multiple of 5. */
export const estimatedMinutes = (km: number) => Math.ceil((km * ROAD_FACTOR * 60) / SPEED_KMH / 5) * 5;

/**
 * The four-step rule of D23, first match wins: (1) the matrix row from `origem`'s city to `destino`'s,
 * else the reverse row (a row serves both ways unless the reverse has its own); (2) the same city:
 * `mesmaCidade` minutes; (3) the estimate from coordinates (the venues' when both have them, else the
 * cities'); (4) a city unknown on either side: undefined (no travel rule, only overlap).
 */
export function travelMinutes(
  origem: Place,
  destino: Place,
  matrix: MatrixRow[],
  mesmaCidade: number,
): Travel | undefined {
  const from = origem.cidade;
  const to = destino.cidade;
  if (!from || !to) return undefined;
  const a = origem.venue && destino.venue ? origem.venue : from;
  const b = origem.venue && destino.venue ? destino.venue : to;
  const distancia_km = Math.round(greatCircleKm(a, b) * 10) / 10;
  const row = (o: number, d: number) => matrix.find((r) => r.origem_ibge === o && r.destino_ibge === d);
  const listed = row(from.codigo_ibge, to.codigo_ibge) ?? row(to.codigo_ibge, from.codigo_ibge);
  if (listed) return { minutos: listed.minutos, distancia_km, fonte: 'matriz' };
  if (from.codigo_ibge === to.codigo_ibge) return { minutos: mesmaCidade, distancia_km, fonte: 'mesma_cidade' };
  return { minutos: estimatedMinutes(distancia_km), distancia_km, fonte: 'estimado' };
}

/**
 * One side of a trip in SQL: an event's city code, its venue's coordinates (null when unknown) and
 * its city's coordinates (the caller joins `cidades`: a subquery here would nest the formula one
 * level deeper, and D1 limits the expression depth of a statement to 100, counting every enclosing
 * expression of a subquery).
 */
export interface PlaceSql {
  cidade: SQL;
  latitude: SQL;
  longitude: SQL;
  cidadeLatitude: SQL;
  cidadeLongitude: SQL;
}

/** The place of the agenda row under `alias`, its city joined as `cityAlias`. */
export const placeCols = (alias: string, cityAlias: string): PlaceSql => ({
  cidade: sql.raw(`${alias}.cidade_ibge`),
  latitude: sql.raw(`${alias}.latitude`),
  longitude: sql.raw(`${alias}.longitude`),
  cidadeLatitude: sql.raw(`${cityAlias}.latitude`),
  cidadeLongitude: sql.raw(`${cityAlias}.longitude`),
});

/** Great-circle km between two points in degrees, in SQL (D1 has SQLite's math functions). */
function greatCircleKmSql(a: { lat: SQL; lon: SQL }, b: { lat: SQL; lon: SQL }) {
  const half = (x: SQL, y: SQL) => sql`sin(radians(${y} - ${x}) / 2)`;
  const h = sql`(${half(a.lat, b.lat)} * ${half(a.lat, b.lat)}
    + cos(radians(${a.lat})) * cos(radians(${b.lat})) * ${half(a.lon, b.lon)} * ${half(a.lon, b.lon)})`;
  return sql`(2 * ${sql.raw(String(EARTH_KM))} * asin(min(1, sqrt(${h}))))`;
}

/**
 * travelMinutes in SQL, for the rules decided inside a statement (the acceptance's guard,
 * services/teams/time-window.ts): the same four steps, the minutes from `origem` to `destino` in
 * `regiao`'s matrix, or null when a city is unknown (no travel rule). The estimate rounds the distance
 * to 0.1 km first, as travelMinutes does, so both give the same minutes (test/routes/teams/
 * conflitos.test.ts compares them).
 */
export function travelMinutesSql(origem: PlaceSql, destino: PlaceSql, o: { regiao: SQL; mesmaCidade: SQL }) {
  const row = (from: SQL, to: SQL) =>
    sql`(select m.minutos from ${deslocamentos} m where m.regiao = ${o.regiao} and m.origem_ibge = ${from} and m.destino_ibge = ${to})`;
  const venues = sql`(${origem.latitude} is not null and ${destino.latitude} is not null)`;
  const point = (p: PlaceSql) => ({
    lat: sql`iif(${venues}, ${p.latitude}, ${p.cidadeLatitude})`,
    lon: sql`iif(${venues}, ${p.longitude}, ${p.cidadeLongitude})`,
  });
  const km = greatCircleKmSql(point(origem), point(destino));
  const estimate = sql`cast(ceil(round(${km}, 1) * ${sql.raw(String(ROAD_FACTOR))} * 60 / ${sql.raw(String(SPEED_KMH))} / 5) * 5 as integer)`;
  return sql`(case when ${origem.cidade} is null or ${destino.cidade} is null then null
    else coalesce(${row(origem.cidade, destino.cidade)}, ${row(destino.cidade, origem.cidade)},
      iif(${origem.cidade} = ${destino.cidade}, ${o.mesmaCidade}, ${estimate})) end)`;
}

// The matrix routes.

const columns = {
  id: deslocamentos.id,
  origem_ibge: deslocamentos.origemIbge,
  destino_ibge: deslocamentos.destinoIbge,
  minutos: deslocamentos.minutos,
  fonte: deslocamentos.fonte,
  regiao: deslocamentos.regiao,
  created_at: deslocamentos.createdAt,
  updated_at: deslocamentos.updatedAt,
};

/** The region's matrix, by origin then destination. */
export const matrixSelect = ({ db, regiao }: QueryCtx) =>
  db
    .select(columns)
    .from(deslocamentos)
    .where(eq(deslocamentos.regiao, regiao))
    .orderBy(asc(deslocamentos.origemIbge), asc(deslocamentos.destinoIbge));

export interface MatrixInput {
  origem_ibge: number;
  destino_ibge: number;
  minutos: number;
  fonte?: string | null;
}

/**
 * Creates or replaces rows of the region's matrix (at most 200) in one atomic batch: each an upsert on
 * (regiao, origem, destino), so a retry writes the same rows; one log entry per row. An unknown city
 * code fails the batch (400) and nothing is written.
 */
export async function saveMatrix({ db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>, itens: MatrixInput[]) {
  const now = new Date().toISOString();
  const writes = itens.flatMap((i) => {
    const id = crypto.randomUUID();
    const key = and(
      eq(deslocamentos.regiao, regiao),
      eq(deslocamentos.origemIbge, i.origem_ibge),
      eq(deslocamentos.destinoIbge, i.destino_ibge),
    );
    return [
      db
        .insert(deslocamentos)
        .values({
          id,
          regiao,
          origemIbge: i.origem_ibge,
          destinoIbge: i.destino_ibge,
          minutos: i.minutos,
          fonte: i.fonte ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [deslocamentos.regiao, deslocamentos.origemIbge, deslocamentos.destinoIbge],
          set: { minutos: i.minutos, fonte: i.fonte ?? null, updatedAt: now },
        }),
      logStatement(db, log, {
        acao: 'deslocamentos.save',
        entidade: 'deslocamentos',
        entidadeId: sql`(select ${deslocamentos.id} from ${deslocamentos} where ${key})`,
        regiao,
        dados: {
          origem_ibge: { depois: i.origem_ibge },
          destino_ibge: { depois: i.destino_ibge },
          minutos: { depois: i.minutos },
        },
      }),
    ];
  });
  const [rows] = await db
    .batch([...(writes as [(typeof writes)[number]]), matrixSelect({ db, regiao })])
    .then((r) => [r[r.length - 1] as Awaited<ReturnType<typeof matrixSelect>>])
    .catch(unknownCity(itens[0]?.origem_ibge, 'itens'));
  return rows;
}

/** Two cities by code with their coordinates, for the estimate; 400 naming the unknown one. */
export const citiesSelect = ({ db }: QueryCtx, codes: number[]) =>
  db
    .select({ codigo_ibge: cidades.codigoIbge, latitude: cidades.latitude, longitude: cidades.longitude })
    .from(cidades)
    .where(or(...codes.map((c) => eq(cidades.codigoIbge, c))));

/** The matrix rows between two cities, both ways. */
export const pairSelect = ({ db, regiao }: QueryCtx, a: number, b: number) =>
  db
    .select({
      origem_ibge: deslocamentos.origemIbge,
      destino_ibge: deslocamentos.destinoIbge,
      minutos: deslocamentos.minutos,
    })
    .from(deslocamentos)
    .where(
      and(
        eq(deslocamentos.regiao, regiao),
        or(
          and(eq(deslocamentos.origemIbge, a), eq(deslocamentos.destinoIbge, b)),
          and(eq(deslocamentos.origemIbge, b), eq(deslocamentos.destinoIbge, a)),
        ),
      ),
    );

/** GET /api/deslocamentos/estimativa's answer from what the read batch found. */
export function estimate(
  found: { codigo_ibge: number; latitude: number; longitude: number }[],
  matrix: MatrixRow[],
  q: { origem: number; destino: number },
  mesmaCidade: number,
): Travel {
  const city = (code: number, field: string) => {
    const c = found.find((f) => f.codigo_ibge === code);
    if (!c) throw new ApiError('VALIDATION_FAILED', `${field}: cidade não encontrada`);
    return c;
  };
  const origem = city(q.origem, 'origem');
  const destino = city(q.destino, 'destino');
  return travelMinutes({ cidade: origem }, { cidade: destino }, matrix, mesmaCidade)!;
}
