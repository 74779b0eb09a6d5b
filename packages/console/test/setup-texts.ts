import { afterAll, afterEach, expect } from 'vitest';
import { i18n } from '../src/lib/i18n/index.ts';

// issue 13: a text the console asks for that no catalogue has would show its key on the page. Every
// console test fails on one (i18next reports it when saveMissing is on; nothing is saved).
const missingKeys: string[] = [];
i18n.options.saveMissing = true;
const onMissingKey = (_languages: readonly string[], namespace: string, key: string) => missingKeys.push(`${namespace}:${key}`);
i18n.on('missingKey', onMissingKey);
// The files of a worker may share the i18n module (isolate: false): each file removes its listener.
afterAll(() => i18n.off('missingKey', onMissingKey));

afterEach(() => {
  expect(missingKeys.splice(0), 'texts asked for that no catalogue has (shown as raw keys)').toEqual([]);
});
