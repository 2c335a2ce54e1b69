export function installEditor(): void
export function decapRequire(): NodeJS.Require
