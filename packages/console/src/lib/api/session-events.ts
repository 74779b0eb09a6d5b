// spec §4 "Session": a 401 on an API call raises a session-expired event; the app shows a blocking
// modal when it hears one. A plain EventTarget keeps the client free of React.
const target = new EventTarget();
const SESSION_EXPIRED = 'session-expired';

export function emitSessionExpired(): void {
  target.dispatchEvent(new Event(SESSION_EXPIRED));
}

/** Calls `listener` on every session-expired event; returns the unsubscribe function. */
export function onSessionExpired(listener: () => void): () => void {
  target.addEventListener(SESSION_EXPIRED, listener);
  return () => target.removeEventListener(SESSION_EXPIRED, listener);
}
