import { schema } from '@octokit/graphql-schema';
import { buildSchema, printType } from 'graphql';
const s = buildSchema(schema.idl, { assumeValidSDL: true });
for (const n of process.argv.slice(2)) { const t = s.getType(n); if (!t) { console.log('no', n); continue; }
  let p = printType(t).replace(/"""[^]*?"""\n?/g, '').replace(/^\s*\n/gm, '');
  if ('getInterfaces' in t || t.constructor.name==='GraphQLInterfaceType') { const impl = s.getPossibleTypes ? (t.constructor.name==='GraphQLInterfaceType'? s.getPossibleTypes(t).map(x=>x.name):[]) : []; if (impl.length) p += '\n  impls: ' + impl.join(','); }
  console.log(p); }
