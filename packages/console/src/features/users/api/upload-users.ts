import { IMPORT_FORMATS, XSRF_COOKIE, XSRF_HEADER, type UserImport } from '@latchkey/domain';
import { api, API_BASE, readCookie } from '../../../lib/api/index.ts';
import { ApiError } from '../../../lib/api/api-error.ts';
import { pathOf, readJson, toApiError } from '../../../lib/api/client.ts';
import { emitSessionExpired } from '../../../lib/api/session-events.ts';

/** A file's import format, by its name: `.csv` is CSV, anything else JSON Lines. */
const formatOfFile = (file: File) => (file.name.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');

/**
 * POST projects/{project}/user-imports with the file as the body (docs/decisions/0052): the
 * browser streams it from disk, never read into the page. The answer (202) comes once the server
 * has stored the file, with the queued job; the server imports it in the background and its
 * progress is read from the imports list (useUserImports), so the page may then be left.
 */
export async function uploadUsers(projectId: string, file: File): Promise<UserImport> {
  const format = formatOfFile(file);
  const query = `?format=${format}`;
  const headers = new Headers({ Accept: 'application/json', 'Content-Type': IMPORT_FORMATS[format] });
  const token = readCookie(XSRF_COOKIE);
  if (token) headers.set(XSRF_HEADER, token);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${pathOf(api.importEndUsers, { params: { project: projectId } })}${query}`, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: file,
    });
  } catch (cause) {
    throw new ApiError(0, 'network_error', cause instanceof Error ? cause.message : 'Network error');
  }
  const body = await readJson(response);
  if (!response.ok) {
    if (response.status === 401) emitSessionExpired();
    throw toApiError(response.status, response.statusText, body);
  }
  return body as UserImport;
}
