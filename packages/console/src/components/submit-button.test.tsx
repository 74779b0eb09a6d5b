import { SUBMIT_LINGER_MS } from '@latchkey/domain';
import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SubmitButton } from './submit-button.tsx';

function renderButton(pending: boolean) {
  const view = render(
    <MantineProvider env="test">
      <SubmitButton pending={pending}>Save</SubmitButton>
    </MantineProvider>,
  );
  return {
    setPending: (next: boolean) =>
      view.rerender(
        <MantineProvider env="test">
          <SubmitButton pending={next}>Save</SubmitButton>
        </MantineProvider>,
      ),
  };
}

const button = () => screen.getByRole('button', { name: 'Save' });

describe('SubmitButton', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a ready submit button while nothing is pending', () => {
    renderButton(false);
    expect(button()).toHaveAttribute('type', 'submit');
    expect(button()).toBeEnabled();
    expect(button()).toHaveAttribute('aria-busy', 'false');
  });

  it('shows the loading state while pending and for 600 ms after (spec §9), then not', () => {
    expect(SUBMIT_LINGER_MS).toBe(600);
    const { setPending } = renderButton(true);
    expect(button()).toHaveAttribute('aria-busy', 'true');
    expect(button()).toBeDisabled();

    setPending(false);
    expect(button()).toHaveAttribute('aria-busy', 'true');
    act(() => {
      vi.advanceTimersByTime(SUBMIT_LINGER_MS - 1);
    });
    expect(button()).toHaveAttribute('aria-busy', 'true');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(button()).toHaveAttribute('aria-busy', 'false');
    expect(button()).toBeEnabled();
  });

  it('starts a fresh 600 ms when a second submission ends during the linger', () => {
    const { setPending } = renderButton(true);
    setPending(false);
    act(() => {
      vi.advanceTimersByTime(400);
    });
    setPending(true);
    setPending(false);
    act(() => {
      vi.advanceTimersByTime(400);
    });
    // 800 ms after the first end, but only 400 ms after the second.
    expect(button()).toHaveAttribute('aria-busy', 'true');
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(button()).toHaveAttribute('aria-busy', 'false');
  });

  it('stays disabled when told to, whatever the loading state', () => {
    render(
      <MantineProvider env="test">
        <SubmitButton pending={false} disabled>
          Save
        </SubmitButton>
      </MantineProvider>,
    );
    expect(button()).toBeDisabled();
  });
});
