/** spec §4: generating new keys is offered only while the application is enabled. */
export function canGenerateKeys(app: { enabled: boolean }, project: { enabled: boolean }): boolean {
  return app.enabled && project.enabled;
}

/** spec §4: save is disabled while the application is disabled (and, spec §5, while the project is closed). */
export function canSaveApplication(app: { enabled: boolean }, project: { enabled: boolean }): boolean {
  return app.enabled && project.enabled;
}

/**
 * spec §2 "Application settings": the redirect URL must match exactly — no prefix, no wildcard, no
 * normalisation of case, trailing slash or default port.
 */
export function redirectUriMatches(registered: readonly string[], asked: string): boolean {
  return registered.includes(asked);
}
