// The signed-in shell, loaded as one chunk (see router.tsx).

export { AppLayout } from './app-layout.tsx';
export { GuardedPage } from '../guarded-page.tsx';
export { ProjectScope } from './project-scope.tsx';
export { NotFoundMessage } from '../../components/not-found-message.tsx';
