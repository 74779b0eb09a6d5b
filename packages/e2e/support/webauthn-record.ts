import type { BrowserContext } from '@playwright/test';

// What the passkey-first scenarios cannot see in Chromium's own dialogs and autofill dropdown
// (docs/decisions/0047, 0048): the WebAuthn requests a page makes and its Signal API calls.

/** What a browser context's pages asked of WebAuthn: requests (mediation, hints) and Signal API calls. */
export interface WebAuthnRecord {
  requests: Array<{ mediation: string; hints: string[] }>;
  signals: Array<{ name: string; options: Record<string, string> }>;
  /**
   * Chromium's virtual authenticator answers a conditional (autofill) request at once with its
   * discoverable passkey, as a person picking it in the field's dropdown would. true: the page's
   * conditional requests are held unanswered instead (the person does not pick it), until aborted.
   */
  holdAutofill: boolean;
}

/**
 * Records the WebAuthn requests a context's pages make and their Signal API calls, by wrapping the
 * browser's own functions before any page script runs (kept here, across navigations): what the
 * scenarios cannot see in Chromium's autofill dropdown, they read here.
 */
export async function recordWebAuthn(context: BrowserContext): Promise<WebAuthnRecord> {
  const record: WebAuthnRecord = { requests: [], signals: [], holdAutofill: false };
  await context.exposeFunction('__holdAutofill', () => record.holdAutofill);
  await context.exposeFunction('__recordRequest', (entry: { mediation: string; hints: string[] }) => record.requests.push(entry));
  await context.exposeFunction('__recordSignal', (entry: { name: string; options: Record<string, string> }) => record.signals.push(entry));
  await context.addInitScript(() => {
    const w = window as unknown as { __recordRequest(e: unknown): void; __recordSignal(e: unknown): void; __holdAutofill(): Promise<boolean> };
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = async (options?: CredentialRequestOptions) => {
      const publicKey = options?.publicKey as (PublicKeyCredentialRequestOptions & { hints?: string[] }) | undefined;
      w.__recordRequest({ mediation: options?.mediation ?? 'optional', hints: publicKey?.hints ?? [] });
      if (options?.mediation === 'conditional' && (await w.__holdAutofill())) {
        const signal = options.signal;
        return new Promise<Credential | null>((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'))),
        );
      }
      return get(options);
    };
    const pkc = window.PublicKeyCredential as unknown as Record<string, ((o: unknown) => Promise<unknown>) | undefined> | undefined;
    for (const name of ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']) {
      const original = pkc?.[name];
      if (pkc && original) {
        pkc[name] = (o: unknown) => {
          w.__recordSignal({ name, options: o });
          return original.call(pkc, o);
        };
      }
    }
  });
  return record;
}
