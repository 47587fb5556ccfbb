import { buildApp } from '/work/main/src/app.ts';
import { loadConfig } from '/work/main/src/config.ts';
import { deployMigrations } from '/work/main/src/db/migrate/engine.ts';
const dir = '/tmp/dd/data'; 
await deployMigrations({ provider: 'sqlite', url: `file:${dir}/forgegraph.db` }).catch(async (e) => { console.log('mig', e); });
const app = await buildApp(loadConfig({ DATA_DIR: dir, SECRET_KEY: 'x' }));
for (const q of ['{ viewer { login } }', '{ users(first: 5) { totalCount } }']) {
  const r = await app.server.inject({ method: 'POST', url: '/api/graphql', payload: { query: q } });
  console.log(r.body);
}
await app.close();
