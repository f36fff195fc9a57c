/** Admin API timestamps: UTC with milliseconds and `Z`, `null` stays null. */
export function isoDate(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
