import { Switch, Text } from '@mantine/core';
import { useId } from 'react';

interface SettingSwitchProps {
  label: string;
  /** What the setting does, said under it and read as the switch's description. */
  description?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}

/**
 * A setting that is on or off. The switch is named by its label alone and described by its help
 * text (Mantine's own `description` sits inside the label, so a screen reader would read the whole
 * paragraph as the switch's name).
 */
export function SettingSwitch({ label, description, checked, disabled = false, onChange }: SettingSwitchProps) {
  const descriptionId = useId();
  return (
    <div>
      <Switch
        label={label}
        checked={checked}
        disabled={disabled}
        aria-describedby={description ? descriptionId : undefined}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      {description ? (
        <Text id={descriptionId} size="xs" c="dimmed" mt={4} pl={46}>
          {description}
        </Text>
      ) : null}
    </div>
  );
}
