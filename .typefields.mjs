import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
const s = buildSchema(readFileSync('schema.graphql', 'utf8'));
const [types, fields] = [process.argv[2].split(','), process.argv[3].split(',')];
for (const t of types) { const ty = s.getType(t); if (!ty) { console.log(t, 'MISSING'); continue; }
  const f = ty.getFields(); console.log(t.padEnd(26), fields.map(n => f[n] ? `${n}:${f[n].type}${f[n].args?.length? '('+f[n].args.map(a=>a.name).join(',')+')':''}` : `-${n}`).join('  ')); }
