import { lazy, type ComponentType } from 'react';

/** React.lazy for a module's named export (one component per file, no default exports). */
export function lazyPage<P extends object, M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M,
) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));
}
