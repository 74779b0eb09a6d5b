import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The width of an element, followed as its box changes (the window, the navigation opening): the
 * charts are drawn at the pixels they have rather than scaled, so their text keeps its size on a phone.
 * 0 until measured.
 */
export function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
