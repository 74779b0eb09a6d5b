import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../test/render-ui.tsx';
import { ConfirmModal } from './confirm-modal.tsx';
import { OneTimeSecretModal } from './one-time-secret-modal.tsx';

function SecretHarness({ onAcknowledge }: { onAcknowledge: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>The page behind</p>
      <OneTimeSecretModal
        opened={open}
        title="Client secret"
        identifier={{ label: 'Client ID', value: 'client-1' }}
        secret={{ label: 'Client secret', value: 'a-very-long-secret-value-0123456789' }}
        onAcknowledge={() => {
          onAcknowledge();
          setOpen(false);
        }}
      />
    </>
  );
}

describe('OneTimeSecretModal (spec §4 "One-time secrets")', () => {
  it('shows the client id and the secret as copyable fields, with the once-only warning', () => {
    renderUi(<SecretHarness onAcknowledge={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Client secret' });
    expect(within(dialog).getByRole('textbox', { name: 'Client ID' })).toHaveValue('client-1');
    expect(within(dialog).getByRole('textbox', { name: 'Client secret' })).toHaveValue('a-very-long-secret-value-0123456789');
    expect(within(dialog).getByRole('button', { name: 'Copy Client secret' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy Client ID' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('cannot be retrieved later');
  });

  it('cannot be closed without the acknowledgement: no close button, Escape and outside clicks do nothing', async () => {
    const acknowledged = vi.fn();
    const ui = renderUi(<SecretHarness onAcknowledge={acknowledged} />);
    const dialog = screen.getByRole('dialog', { name: 'Client secret' });
    expect(within(dialog).queryByRole('button', { name: /close/i })).not.toBeInTheDocument();

    await ui.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Client secret' })).toBeInTheDocument();
    const overlay = document.querySelector('.mantine-Modal-overlay');
    expect(overlay).not.toBeNull();
    if (overlay) await ui.user.click(overlay);
    expect(screen.getByRole('dialog', { name: 'Client secret' })).toBeInTheDocument();
    expect(acknowledged).not.toHaveBeenCalled();

    await ui.user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    expect(acknowledged).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

function ConfirmHarness({ onConfirm, loading = false }: { onConfirm: () => void; loading?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Disable application</button>
      <ConfirmModal
        opened={open}
        title="Disable application"
        message="Users will no longer be able to sign in."
        confirmLabel="Disable"
        loading={loading}
        onConfirm={onConfirm}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

describe('ConfirmModal', () => {
  it('asks the question under its title; Cancel closes it without confirming', async () => {
    const confirmed = vi.fn();
    const ui = renderUi(<ConfirmHarness onConfirm={confirmed} />);
    await ui.user.click(screen.getByRole('button', { name: 'Disable application' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable application' });
    expect(dialog).toHaveTextContent('Users will no longer be able to sign in.');
    // A destructive question starts from Cancel.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await ui.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(confirmed).not.toHaveBeenCalled();
  });

  it('confirms with its button, and closes on Escape', async () => {
    const confirmed = vi.fn();
    const ui = renderUi(<ConfirmHarness onConfirm={confirmed} />);
    await ui.user.click(screen.getByRole('button', { name: 'Disable application' }));
    await ui.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable' }));
    expect(confirmed).toHaveBeenCalledOnce();
    await ui.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the action under way on the confirm button and cannot be left meanwhile', async () => {
    const ui = renderUi(<ConfirmHarness onConfirm={() => undefined} loading />);
    await ui.user.click(screen.getByRole('button', { name: 'Disable application' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable application' });
    expect(within(dialog).getByRole('button', { name: 'Disable' })).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await ui.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Disable application' })).toBeInTheDocument();
  });
});
