/** Recommendations on the site are not built yet: nothing, as Ghost prints with recommendations off (its default). */
export function recommendations() {
  return undefined;
}
