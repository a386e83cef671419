import { useDownload } from './use-download';

/**
 * A report's Excel export: `run` downloads the workbook of what the filters show, `exporting` says
 * it is under way, and a failure is shown in the user's language.
 */
export function useReportExport(download: () => Promise<void>) {
  const { busy, run } = useDownload<true>();
  return { exporting: busy !== null, run: () => run(true, download) };
}
