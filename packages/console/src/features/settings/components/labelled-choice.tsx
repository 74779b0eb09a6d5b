import { Input, SegmentedControl } from '@mantine/core';
import { useId } from 'react';

interface LabelledChoiceProps<V extends string> {
  label: string;
  description?: string;
  value: V;
  data: ReadonlyArray<{ value: V; label: string }>;
  disabled?: boolean;
  onChange: (value: V) => void;
}

/** One of a few values, side by side, labelled and described as the inputs around it are. */
export function LabelledChoice<V extends string>({ label, description, value, data, disabled = false, onChange }: LabelledChoiceProps<V>) {
  const id = useId();
  return (
    <Input.Wrapper
      label={label}
      description={description}
      labelElement="div"
      labelProps={{ id: `${id}-label` }}
      descriptionProps={{ id: `${id}-description` }}
    >
      <div>
        <SegmentedControl
          mt={4}
          aria-labelledby={`${id}-label`}
          aria-describedby={description ? `${id}-description` : undefined}
          disabled={disabled}
          value={value}
          onChange={(next) => {
            const found = data.find((d) => d.value === next);
            if (found) onChange(found.value);
          }}
          data={data.map((d) => ({ value: d.value, label: d.label }))}
        />
      </div>
    </Input.Wrapper>
  );
}
