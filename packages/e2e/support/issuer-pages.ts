import { expect, type Page } from '@playwright/test';

// Where a project's issuer is (docs/decisions/0047): the OpenID Connect page's "Issuer address" and
// what the General page's custom domain says about passkeys.

function issuerSection(page: Page) {
  return page.getByRole('region', { name: 'Issuer address' });
}

/** The issuer's address, its placement badge (Shared path, Own host, Custom domain) and the passkey domain it names. */
export async function expectIssuerPlacement(page: Page, address: string | RegExp, placement: string, passkeyDomain: string): Promise<void> {
  const section = issuerSection(page);
  await expect(section.getByRole('textbox', { name: 'OIDC Issuer' })).toHaveValue(address);
  await expect(section.getByText(placement, { exact: true })).toBeVisible();
  await expect(section.getByText(`Passkeys are made for ${passkeyDomain}`, { exact: false })).toBeVisible();
}

export async function expectNoMoveOffered(page: Page): Promise<void> {
  await expect(issuerSection(page).getByRole('button', { name: 'Move to its own host' })).toHaveCount(0);
}

/** General: the note under Project Domain, as text (`warning`: shown as a warning, once the domain is being changed). */
export async function expectDomainPasskeysNote(page: Page, text: string | RegExp, { warning }: { warning: boolean }): Promise<void> {
  const warned = page.getByRole('status').filter({ hasText: text });
  if (warning) await expect(warned).toBeVisible();
  else {
    await expect(page.getByText(text)).toBeVisible();
    await expect(warned).toHaveCount(0);
  }
}
