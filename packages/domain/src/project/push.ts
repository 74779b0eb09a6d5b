// spec §2 "Mobile Applications": the Firebase service account private key is "taken from an
// uploaded JSON key file". The file is the one the Firebase console downloads (Project settings →
// Service accounts → Generate new private key): a JSON object of type "service_account".

/** What a service account key file names: its Firebase project, its account and its private key. */
export interface ServiceAccountKey {
  projectId: string;
  clientEmail: string;
  privateKey: string;
}

const PRIVATE_KEY = /^-----BEGIN (RSA )?PRIVATE KEY-----\n[\s\S]+\n-----END (RSA )?PRIVATE KEY-----\n?$/;

/** The key a file's text holds, or null when it is not a Firebase (Google Cloud) service account key. */
export function parseServiceAccountKey(text: string): ServiceAccountKey | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const file = value as Record<string, unknown>;
  const { type, project_id: projectId, client_email: clientEmail, private_key: privateKey } = file;
  if (type !== 'service_account') return null;
  if (typeof projectId !== 'string' || !/^[a-z][a-z0-9-]{0,62}$/.test(projectId)) return null;
  if (typeof clientEmail !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(clientEmail)) return null;
  if (typeof privateKey !== 'string' || !PRIVATE_KEY.test(privateKey)) return null;
  return { projectId, clientEmail, privateKey };
}
