/** One language's texts of @kulu/shared's messages (shared-texts-plugin.ts). */
declare module 'virtual:shared-texts/*' {
  const texts: { errors: Record<string, string>; validation: Record<string, string> };
  export default texts;
}
