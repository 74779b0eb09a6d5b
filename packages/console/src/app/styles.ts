// The UI kit's styles, whole and once, inside the `mantine` CSS layer: every component is styled
// whatever the page and whatever order the chunks load in, and no file has to remember to import the
// styles of the components it uses (about 35 KiB gzipped; the first load stays within its budget,
// see scripts/bench.mjs). Our own styles (global.css, CSS modules) are unlayered, so they always win.
import '@mantine/core/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
import './global.css';
