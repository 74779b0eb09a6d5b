export { api, type ApiRoute, type ApiRoutes } from './contract.ts';
export {
  request,
  requestTagged,
  download,
  readCookie,
  API_BASE,
  type RequestOptions,
  type Tagged,
  type DownloadedFile,
  type DownloadProgress,
} from './client.ts';
export { ApiError, isApiError, type ApiErrorCode } from './api-error.ts';
export { onSessionExpired, emitSessionExpired } from './session-events.ts';
