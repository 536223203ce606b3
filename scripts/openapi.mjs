#!/usr/bin/env node
/**
 * Writes the OpenAPI document the app serves to openapi.json (or the path given), for
 * `npm run lint:openapi` (redocly lint) and for generating clients offline. The app is imported
 * through tsx; the document is built exactly as GET /openapi.json builds it, for the default
 * configuration (regions SP, MG) and the local server of `npm run dev`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { openApiDocument } from '../src/routes/document.ts';

const out = process.argv[2] ?? 'openapi.json';
const doc = openApiDocument(createApp(), { server: 'http://localhost:8787', regioes: ['SP', 'MG'] });
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`wrote ${out}: ${Object.keys(doc.paths ?? {}).length} paths`);
