/** Why the build in `outDir` is not one of these sources and settings, or null when it is. */
export declare function staleReason(
  outDir: string,
  options?: { env?: NodeJS.ProcessEnv; compareSettings?: boolean },
): string | null
