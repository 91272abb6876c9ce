import Joi from 'joi';
import { notFound } from '../../domain/errors';
import { failBodySchema } from '../openapi/document';
import { PageAssets } from '../pages/assets';
import type { ApiRoutes } from '../routeTable';

/** The pages' own scripts and styles, from this origin (their policy allows no other). */
export function registerPageAssets(site: ApiRoutes): void {
  const assets = new PageAssets();
  site.add<unknown, unknown, { name: string }>({
    method: 'get',
    path: '/assets/{name}',
    operationId: 'pageAsset',
    dependencyFree: true,
    summary: 'A script or style of the pages (the live room’s)',
    tags: ['Pages'],
    auth: 'none',
    params: Joi.object({ name: Joi.string().max(64) }),
    responses: {
      200: { description: 'The asset', contentType: 'text/javascript' },
      404: { description: 'No such asset', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      const asset = await assets.get(params.name);
      if (!asset) throw notFound('Not found');
      ctx.set('ETag', asset.etag);
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = asset.type;
      ctx.status = ctx.get('if-none-match') === asset.etag ? 304 : 200;
      if (ctx.status === 200) ctx.body = asset.body;
    },
  });
}
