import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/lazyPackage.ts';

/**
 * The server is made with Fastify's schema compilers loaded at their first use (src/lazyPackage.ts): a route that
 * declares JSON schemas is still validated and serialized by them, as with Fastify's defaults.
 */
describe('Fastify schema compilers loaded at their first use', () => {
  it('validate a body and serialize a response by their schemas', async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    app.post(
      '/checked',
      {
        schema: {
          body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      async (req) => ({ n: (req.body as { n: number }).n, internal: 'not in the schema' }),
    );
    app.get('/plain', async () => ({ plain: true, extra: 1 }));
    const refused = await app.inject({ method: 'POST', url: '/checked', payload: { n: 'x' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: 'body/n must be integer' });
    const served = await app.inject({ method: 'POST', url: '/checked', payload: { n: 7 } });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual({ n: 7 });
    expect((await app.inject({ method: 'GET', url: '/plain' })).json()).toEqual({ plain: true, extra: 1 });
    await app.close();
  });
});
