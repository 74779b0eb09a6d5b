import { Center, Loader, Stack, Text } from '@mantine/core';

interface CenteredLoaderProps {
  label: string;
  /** Fill the whole viewport (before any layout exists) rather than the content area. */
  fullScreen?: boolean;
}

export function CenteredLoader({ label, fullScreen = false }: CenteredLoaderProps) {
  return (
    <Center mih={fullScreen ? '100dvh' : 240} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text size="sm">{label}</Text>
      </Stack>
    </Center>
  );
}
