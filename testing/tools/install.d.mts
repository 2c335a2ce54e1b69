export function wranglerBin(): string
export function vnuJar(): string
