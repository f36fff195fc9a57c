import { createRequire } from 'node:module';
import type JsYaml from 'js-yaml';

const require = createRequire(import.meta.url);

/**
 * js-yaml's `load`, the module loaded when YAML is first parsed (routes.yaml, redirects): a server that only
 * answers the APIs never holds it (issue 26). It stays in node_modules, outside the bundle (rolldown.config.mjs).
 */
export function loadYaml(text: string): unknown {
  return (require('js-yaml') as typeof JsYaml).load(text);
}
