import { Button, Tooltip, type ButtonProps } from 'antd';

/** A borderless button that is only an icon: `label` is its tooltip and its accessible name. */
export function IconButton({
  label,
  ...button
}: Omit<ButtonProps, 'type' | 'aria-label'> & { label: string }) {
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} {...button} />
    </Tooltip>
  );
}
