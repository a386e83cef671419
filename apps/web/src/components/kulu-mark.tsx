import type { SVGProps } from 'react';

/** The Kulu logo mark: a rounded square with a K. The box takes its colour from the caller. */
export function KuluMark({ size, boxProps }: { size: number; boxProps: SVGProps<SVGRectElement> }) {
  return (
    <svg viewBox="0 0 48 48" width={size} height={size} aria-hidden="true">
      <rect width="48" height="48" rx="12" {...boxProps} />
      <path
        d="M15 12v24M15 25l12-13M19 21l10 15"
        stroke="#fff"
        strokeWidth="4.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        fill="none"
      />
    </svg>
  );
}
