import '@testing-library/jest-dom/vitest';
import { cleanNotifications, cleanNotificationsQueue } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import './setup-texts.ts';

// The component tests' set-up (happy-dom); the tests that touch no DOM run in Node with setup-texts.ts only.

// Pages load on demand (React.lazy); the first render of a page in a run waits for its module.
configure({ asyncUtilTimeout: 5000 });

// Testing Library cleans up by itself only when the runner exposes globals; ours does not.
afterEach(() => {
  cleanup();
  // The notifications store lives in a module: empty it so one test's snackbar does not show in the next.
  cleanNotifications();
  cleanNotificationsQueue();
  // The files of a worker share one document (isolate: false): nothing stored stays for the next test.
  localStorage.clear();
  sessionStorage.clear();
});

// The simulated DOM lacks the layout APIs Mantine reads (color scheme and breakpoints, element resizing, scrolling).
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverShim implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverShim;

window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;
