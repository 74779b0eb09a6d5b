// Mantine styles, per component and inside the `mantine` CSS layer: only what the first screen uses
// (the session entry's loader and messages) is in the first stylesheet; the shell (layout/shell.ts)
// and the pages import their own. Our own styles are unlayered, so they win whatever order the
// chunks load in.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/core/styles/Button.layer.css';
import './global.css';
