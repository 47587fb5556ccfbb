import path from 'node:path';
import { defineConfig } from 'prisma/config';

// The native schema engine cannot be downloaded here. `prisma generate` never runs it, and a stub
// that *fails* keeps `prisma migrate deploy` from exiting 0 without migrating (/bin/true would).
// Migrations go through the WebAssembly engine instead: npm run migrate:* (src/db/migrate/).
process.env['PRISMA_SCHEMA_ENGINE_BINARY'] ??= path.join(import.meta.dirname, 'prisma/scripts/no-schema-engine.sh');

const provider = process.env['DB_PROVIDER'] === 'postgresql' ? 'postgresql' : 'sqlite';
const defaultUrl = provider === 'sqlite' ? 'file:./data/forgegraph.db' : 'postgresql://postgres@127.0.0.1:5432/forgegraph';
const url = process.env['DATABASE_URL'] ?? defaultUrl;

export default defineConfig({
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/${provider}/migrations` },
  datasource: { url },
});
