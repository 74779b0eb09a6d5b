import '@testing-library/jest-dom/vitest';
import { cleanNotifications, cleanNotificationsQueue } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import { i18n } from '../src/lib/i18n/index.ts';

// Pages load on demand (React.lazy); the first render of a page in a run waits for its module.
configure({ asyncUtilTimeout: 5000 });

// issue 13: a text the console asks for that no catalogue has would show its key on the page. Every
// component test fails on one (i18next reports it when saveMissing is on; nothing is saved).
const missingKeys: string[] = [];
i18n.options.saveMissing = true;
i18n.on('missingKey', (_languages, namespace, key) => missingKeys.push(`${namespace}:${key}`));

// Testing Library cleans up by itself only when the runner exposes globals; ours does not.
afterEach(() => {
  cleanup();
  // The notifications store lives in a module: empty it so one test's snackbar does not show in the next.
  cleanNotifications();
  cleanNotificationsQueue();
  expect(missingKeys.splice(0), 'texts asked for that no catalogue has (shown as raw keys)').toEqual([]);
});

// jsdom lacks the layout APIs Mantine reads (color scheme and breakpoints, element resizing, scrolling).
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
