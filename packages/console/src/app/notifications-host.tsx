import { Notifications } from '@mantine/notifications';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';

/** Where snackbar notifications appear (spec §2 "Layout"); loaded after the first render. */
export default function NotificationsHost() {
  return <Notifications position="bottom-right" limit={4} />;
}
