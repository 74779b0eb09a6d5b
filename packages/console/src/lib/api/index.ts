export { api, type ApiRoute, type ApiRoutes } from './contract.ts';
export { request, readCookie, API_BASE, type RequestOptions } from './client.ts';
export { ApiError, isApiError, type ApiErrorCode } from './api-error.ts';
export { onSessionExpired, emitSessionExpired } from './session-events.ts';
