import { useEffect, useLayoutEffect, useRef } from 'react';

/** A phone's width: list.module.css's own breakpoint (Mantine's xs). */
const PHONE = '(max-width: 36em)';

/**
 * Stacks a table's rows (each a block of label/value lines, list.module.css) on a phone, and at any
 * width where the table as a table would be wider than its box: a table that scrolled sideways hid
 * its last columns, a row's status and actions, past the box's edge (issue 35, docs/decisions/0041).
 *
 * Sets `data-stacked` on the box itself rather than through React state: whether the table fits is
 * known only by laying it out as a table, so each check takes the attribute off, measures and puts
 * it back in the same task, before the browser paints either state. It runs after every render (new
 * rows need other widths) and when the box's width changes, watched on `probe`, an empty element
 * across the box whose height never changes (the box's own height changes with the stacking, and
 * watching it would loop).
 */
export function useStackedRows() {
  const box = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const probe = useRef<HTMLDivElement>(null);

  const fit = useRef(() => {
    const boxElement = box.current;
    const tableElement = table.current;
    if (!boxElement || !tableElement) return;
    boxElement.removeAttribute('data-stacked');
    const phone = typeof window.matchMedia === 'function' && window.matchMedia(PHONE).matches;
    if (phone || tableElement.getBoundingClientRect().width > boxElement.clientWidth + 0.5) boxElement.setAttribute('data-stacked', '');
  });

  useLayoutEffect(() => fit.current());

  useEffect(() => {
    const probeElement = probe.current;
    if (!probeElement || typeof ResizeObserver === 'undefined') return;
    let width = probeElement.getBoundingClientRect().width;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry || entry.contentRect.width === width) return;
      width = entry.contentRect.width;
      fit.current();
    });
    observer.observe(probeElement);
    return () => observer.disconnect();
  }, []);

  return { box, table, probe };
}
