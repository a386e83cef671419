import { MASTER_RESOURCES, type MasterKey, type MasterResource } from '@kulu/shared';

/** Where the API serves the master resources (the one place the web builds their URLs). */
const MASTERS_API = '/api/masters';

/** `/api/masters/<path>[/<segment>…]` of a declared resource; segments are URL-encoded. */
export const masterUrl = (
  resource: Pick<MasterResource, 'path'>,
  ...segments: ReadonlyArray<string | number>
): string => [MASTERS_API, resource.path, ...segments.map((s) => encodeURIComponent(String(s)))].join('/');

/** The same by the resource's typed key: an unknown key does not compile. */
export const masterUrlOf = (key: MasterKey, ...segments: ReadonlyArray<string | number>): string =>
  masterUrl(MASTER_RESOURCES[key], ...segments);
