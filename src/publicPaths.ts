/** Where the integration API lives on the service's public origin (spec: `/api/integrationsv2/...`). */
export const API_PREFIX = '/api/integrationsv2';
