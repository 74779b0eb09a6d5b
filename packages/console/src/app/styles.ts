// The console's styles, loaded with the first download: the UI kit's (mantine-styles.ts, complete by
// test), then our own. Our styles (global.css, CSS modules) are unlayered, so they always win over
// the kit's `mantine` layer, whatever order the chunks load in.
import './mantine-styles.ts';
import './global.css';
