export const VERSIONS: Record<string, {package: string; bin: string}>
export const CACHE: string
export function clientBin(name: string): string
