/** Comments are not built (Ghost's comments app needs its comments API): nothing, as Ghost prints with comments off. */
export function comments() {
  return undefined;
}
