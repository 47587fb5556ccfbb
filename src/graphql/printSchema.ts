import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSortedSchema } from './schema.ts';

// `npm run schema:print`: rewrites the committed schema.graphql (test/graphql/schema.test.ts fails when stale).
const file = path.resolve(import.meta.dirname, '../../schema.graphql');
writeFileSync(file, printSortedSchema());
process.stdout.write(`wrote ${file}\n`);
