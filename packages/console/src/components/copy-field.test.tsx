import { COPY_CONFIRMATION_MS } from '@latchkey/domain';
import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../test/render-ui.tsx';
import { CopyField } from './copy-field.tsx';

/** After rendering: user-event installs a clipboard of its own when it is set up. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(writeText) }, configurable: true });
  return navigator.clipboard.writeText as ReturnType<typeof vi.fn>;
}

/** Lets the clipboard's promise settle. */
const settle = () => act(async () => {});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('CopyField (spec §2 "Application settings": copyable fields)', () => {
  it('is a read-only field with its value and a "Copy {label}" button', () => {
    renderUi(<CopyField label="Client ID" value="abc123" />);
    const field = screen.getByRole('textbox', { name: 'Client ID' });
    expect(field).toHaveValue('abc123');
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Copy Client ID' })).toBeInTheDocument();
  });

  it('copies the value and says "Copied" for 2 seconds (spec §9), then no more', async () => {
    renderUi(<CopyField label="Client ID" value="abc123" />);
    const writeText = stubClipboard(async () => undefined);
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Copy Client ID' }));
    await settle();
    expect(writeText).toHaveBeenCalledWith('abc123');
    expect(screen.getByRole('status')).toHaveTextContent('Copied');
    // The button keeps its name while it confirms.
    expect(screen.getByRole('button', { name: 'Copy Client ID' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(COPY_CONFIRMATION_MS - 1));
    expect(screen.getByText('Copied')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
  });

  it('a second copy during the confirmation starts a fresh 2 seconds', async () => {
    renderUi(<CopyField label="Client ID" value="abc123" />);
    stubClipboard(async () => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Copy Client ID' }));
    await settle();
    act(() => vi.advanceTimersByTime(1500));
    fireEvent.click(screen.getByRole('button', { name: 'Copy Client ID' }));
    await settle();
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.getByText('Copied')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
  });

  it('a failed copy is only logged (spec §8): no confirmation, no notification', async () => {
    const failure = new DOMException('Clipboard write is not allowed', 'NotAllowedError');
    renderUi(<CopyField label="Client secret" value="s3cret" />);
    stubClipboard(async () => {
      throw failure;
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const shown = vi.spyOn(notifications, 'show');

    fireEvent.click(screen.getByRole('button', { name: 'Copy Client secret' }));
    await settle();
    expect(logged).toHaveBeenCalledWith(expect.any(String), failure);
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
    expect(shown).not.toHaveBeenCalled();
  });
});
