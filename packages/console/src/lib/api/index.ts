export { api, type ApiRoute, type ApiRoutes } from './contract.ts';
export { request, requestTagged, readCookie, API_BASE, type RequestOptions, type Tagged } from './client.ts';
export type { DownloadedFile, DownloadProgress } from './download.ts';
export { ApiError, isApiError, type ApiErrorCode } from './api-error.ts';
export { onSessionExpired, emitSessionExpired } from './session-events.ts';
