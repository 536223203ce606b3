-- The system categories of docs/decisions.md#d18-finance for every region known now: the default
-- regions and any region that already has data. A region configured later gets them in the batch of
-- its first finance write or category read (services/financeiro.ts ensureSystemCategories).
-- Written by hand (drizzle-kit generate --custom); ids are random UUID v4 built in SQL. One statement
-- per source of regions (D1 limits the terms of a compound SELECT).
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT value AS regiao FROM json_each('["SP","MG"]')) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `cursos`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `empresas`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `funcoes`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `tipos_eventos`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `profissionais`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `cadastro_fot`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)
SELECT
  lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)),
  regiao, c.value ->> '$.n', c.value ->> '$.k', c.value ->> '$.t', c.value ->> '$.s',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT hex(randomblob(16)) AS h, r.regiao, c.value FROM (SELECT DISTINCT `regiao` FROM `agenda`) AS r CROSS JOIN json_each('[{"s":"contrato","n":"Contrato","k":"contrato","t":"receita"},{"s":"pacotes_fotos","n":"Pacotes de fotos","k":"pacotes de fotos","t":"receita"},{"s":"cache_profissional","n":"Cachê profissional","k":"cachê profissional","t":"despesa"},{"s":"logistica","n":"Logística","k":"logística","t":"despesa"},{"s":"equipamento","n":"Equipamento","k":"equipamento","t":"despesa"},{"s":"captacao","n":"Captação","k":"captação","t":"despesa"}]') AS c) AS c
WHERE true
ON CONFLICT DO NOTHING;
