import { Button, Stack, Text, Title } from '@mantine/core';

interface FullPageMessageProps {
  title: string;
  text: string;
  action: { label: string; onClick: () => void };
}

/** A whole page with one thing to say and one way on, shown outside the layout (no account yet, a crash). */
export function FullPageMessage({ title, text, action }: FullPageMessageProps) {
  return (
    <main>
      <Stack align="center" justify="center" mih="100dvh" gap="md" p="md">
        <Title order={1} size="h2" ta="center">
          {title}
        </Title>
        <Text ta="center" maw={480}>
          {text}
        </Text>
        <Button onClick={action.onClick}>{action.label}</Button>
      </Stack>
    </main>
  );
}
