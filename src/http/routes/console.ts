import { notaryConsolePage } from '../pages/notaryConsole';
import type { ApiRoutes } from '../routeTable';

export function registerConsolePage(site: ApiRoutes): void {
  site.add({
    method: 'get',
    path: '/notary',
    operationId: 'notaryConsole',
    dependencyFree: true,
    summary: 'The notary console: a notary’s or witness’s sessions, offers and actions',
    description:
      'Reached from the login-link page (GET /auto/{id}), which keeps the access token for it; it calls ' +
      'GET /me/sessions, the accept and join routes and the notary actions.',
    tags: ['Notary console'],
    auth: 'none',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: async (ctx) => {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = notaryConsolePage();
    },
  });
}
