import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';

const require = createRequire(import.meta.url);

/**
 * Handlebars, loaded on first use: a server that only answers the APIs never holds it (its source and objects,
 * ~1.8 MB of heap, issue 26). It is one module of node_modules, not a copy in the bundle (rolldown.config.mjs),
 * so the theme engine, express-hbs and these pages share one SafeString class.
 */
export function handlebars(): typeof Handlebars {
  return require('handlebars') as typeof Handlebars;
}

/** A Handlebars template compiled on its first render (the default error and password pages). */
export function lazyTemplate(source: string): (data: Record<string, unknown>) => string {
  let compiled: Handlebars.TemplateDelegate | undefined;
  return (data) => (compiled ??= handlebars().compile(source))(data);
}
