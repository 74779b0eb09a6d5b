import { Notifications } from '@mantine/notifications';

/** Where snackbar notifications appear (spec §2 "Layout"); loaded after the first render. */
export default function NotificationsHost() {
  return <Notifications position="bottom-right" limit={4} />;
}
