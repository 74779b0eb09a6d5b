// The signed-in shell, loaded as one chunk (see router.tsx), with the styles of what it uses.
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/AppShell.layer.css';
import '@mantine/core/styles/Breadcrumbs.layer.css';
import '@mantine/core/styles/NavLink.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Alert.layer.css';

export { AppLayout } from './app-layout.tsx';
export { GuardedPage } from '../guarded-page.tsx';
export { ProjectScope } from './project-scope.tsx';
export { NotFoundMessage } from '../../components/not-found-message.tsx';
