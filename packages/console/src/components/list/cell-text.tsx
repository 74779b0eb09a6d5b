import { Text } from '@mantine/core';

interface CellTextProps {
  value: string | null | undefined;
  /** What an empty value shows as (dimmed): "—", "Unknown"… (none for a value never empty, e.g. a name). */
  none?: string;
  className?: string | undefined;
  /** The cell's main text (the row's name): weighted. */
  strong?: boolean;
}

/** A list cell's text, or a dimmed word when the row has none (an event of no device, a device of no address). */
export function CellText({ value, none, className, strong = false }: CellTextProps) {
  if (!value) {
    return (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    );
  }
  return strong ? (
    <Text size="sm" fw={500} className={className}>
      {value}
    </Text>
  ) : (
    <span className={className}>{value}</span>
  );
}
