/** A positive integer from an environment variable, or the fallback when unset or invalid. */
export function positiveIntFromEnv(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n > 0 ? n : fallback;
}
