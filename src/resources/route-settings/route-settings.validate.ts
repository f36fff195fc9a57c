import { loadYaml } from '../../yaml.js';
import { errors } from '../../errors.js';

/**
 * routes.yaml as Ghost reads it (`core/server/services/route-settings`): parsed with js-yaml 4.1.0 (Ghost's
 * version, so a parse error names the same place in the same words), then checked definition by definition
 * with Ghost's messages. The result is Ghost's normalised form: templates as lists, permalinks in `:name`
 * notation, `data` expanded to its query and router halves.
 */

export type DataResource = 'tags' | 'authors' | 'posts' | 'pages';

export interface DataQuery {
  type: 'read' | 'browse';
  resource: DataResource;
  options: Record<string, unknown>;
}

export interface DataSpec {
  query: Record<string, DataQuery>;
  /** Resources whose own URL redirects to the route that shows them (`redirect: true`, the default for `read`). */
  router: Record<string, { slug?: string; redirect: boolean }[]>;
}

export interface CustomRoute {
  templates: string[];
  data: DataSpec | null;
  controller: 'channel' | null;
  filter: string | null;
  order: string | null;
  limit: number | null;
  rss: boolean;
  contentType: string | null;
}

export interface CollectionSettings {
  permalink: string;
  templates: string[];
  data: DataSpec | null;
  filter: string | null;
  order: string | null;
  limit: number | null;
  rss: boolean;
}

export interface RouteSettings {
  routes: Record<string, CustomRoute>;
  collections: Record<string, CollectionSettings>;
  taxonomies: Partial<Record<'tag' | 'author', string>>;
}

/** Ghost's `default-routes.yaml`, byte for byte: what a fresh site downloads. */
export const DEFAULT_ROUTES_YAML = `routes:

collections:
  /:
    permalink: /{slug}/
    template: index

taxonomies:
  tag: /tag/{slug}/
  author: /author/{slug}/
`;

const HELP_URL = 'https://ghost.org/docs/themes/routing/';

/** The resources `data` may name, keyed as the short form names them (Ghost's routing `config.js`). */
const QUERY: Record<string, { resource: DataResource | 'previews' | 'email_posts'; options: Record<string, unknown>; internal?: boolean }> = {
  tag: { resource: 'tags', options: { slug: '%s', visibility: 'public' } },
  author: { resource: 'authors', options: { slug: '%s' } },
  post: { resource: 'posts', options: { slug: '%s' } },
  page: { resource: 'pages', options: { slug: '%s' } },
  previews: { resource: 'previews', options: {} },
  email: { resource: 'email_posts', options: { slug: '%s' } },
};
const RESOURCES = Object.values(QUERY).map((entry) => entry.resource);
const TAXONOMIES = ['tag', 'author'];

const invalid = (at: unknown, reason: string, help?: string) =>
  errors.validation({ message: `The following definition "${String(at)}" is invalid: ${reason}`, ...(help ? { help } : {}) });

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses and validates a routes.yaml text; throws Ghost's error for the first problem. */
export function parseRouteSettings(text: string): RouteSettings {
  let parsed: unknown;
  try {
    parsed = loadYaml(text);
  } catch (err) {
    const error = err as { reason?: string; message?: string };
    throw errors.incorrectUsage({
      message: `Could not parse provided YAML file: ${error.reason}.`,
      code: 'YAML_PARSER_ERROR',
      context: error.message ?? null,
      help: 'Check provided file for typos and fix the named issues.',
    });
  }
  if (typeof parsed === 'string') {
    throw errors.incorrectUsage({ message: 'YAML input cannot be a plain string. Check the format of your YAML file.', help: HELP_URL });
  }
  const object = isMap(parsed) ? parsed : {};
  return {
    routes: validateRoutes(object.routes || {}),
    collections: validateCollections(object.collections || {}),
    taxonomies: validateTaxonomies(object.taxonomies || {}),
  };
}

function checkSlashes(at: string) {
  if (!at.endsWith('/')) throw invalid(at, 'A trailing slash is required.');
  if (!at.startsWith('/')) throw invalid(at, 'A leading slash is required.');
}

function templatesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!isMap(value) || !('template' in value)) return [];
  return (Array.isArray(value.template) ? value.template : [value.template]).map(String);
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function validateRoutes(routes: unknown): Record<string, CustomRoute> {
  if (!isMap(routes)) throw invalid(routes, '`routes` must be a YAML map.');
  const out: Record<string, CustomRoute> = {};
  for (const [path, value] of Object.entries(routes)) {
    checkSlashes(path);
    if (!value) throw invalid(path, 'Please define a template.', 'e.g. /about/: about');
    const object = isMap(value) ? value : {};
    out[path] = {
      templates: templatesOf(value),
      data: validateData(object.data),
      controller: object.controller === 'channel' ? 'channel' : null,
      filter: text(object.filter),
      order: text(object.order),
      limit: number(object.limit),
      rss: object.rss !== false,
      contentType: text(object.content_type),
    };
  }
  return out;
}

function validateCollections(collections: unknown): Record<string, CollectionSettings> {
  if (!isMap(collections)) throw invalid(collections, '`collections` must be a YAML map.');
  const out: Record<string, CollectionSettings> = {};
  for (const [path, value] of Object.entries(collections)) {
    checkSlashes(path);
    const object = isMap(value) ? value : {};
    if (!object.permalink) throw invalid(path, 'Please define a permalink route.', 'e.g. permalink: /{slug}/');
    const permalink = String(object.permalink);
    checkSlashes(permalink);
    if (/\/:\w+/.test(permalink)) throw invalid(permalink, 'Please use the following notation e.g. /{slug}/.');
    out[path] = {
      permalink: permalink.replace(/{(\w+)}/g, ':$1'),
      templates: templatesOf(value),
      data: validateData(object.data),
      filter: text(object.filter),
      order: text(object.order),
      limit: number(object.limit),
      rss: object.rss !== false,
    };
  }
  return out;
}

function validateTaxonomies(taxonomies: unknown): RouteSettings['taxonomies'] {
  if (!isMap(taxonomies)) throw invalid(taxonomies, '`taxonomies` must be a YAML map.');
  const out: RouteSettings['taxonomies'] = {};
  for (const [name, value] of Object.entries(taxonomies)) {
    if (!value) throw invalid(name, 'Please define a taxonomy permalink route.', 'e.g. tag: /tag/{slug}/');
    if (!TAXONOMIES.includes(name)) throw invalid(name, 'Unknown taxonomy.');
    const permalink = String(value);
    checkSlashes(permalink);
    if (/\/:\w+/.test(permalink)) throw invalid(permalink, 'Please use the following notation e.g. /{slug}/.');
    out[name as 'tag' | 'author'] = permalink.replace(/{(\w+)}/g, ':$1');
  }
  return out;
}

/** `data: tag.recipes` (short form) or named long forms, expanded as Ghost expands them. */
function validateData(data: unknown): DataSpec | null {
  if (data === undefined) return null;
  const spec: DataSpec = { query: {}, router: {} };
  const addRouter = (resource: string, entry: { slug?: string; redirect: boolean }) => (spec.router[resource] ??= []).push(entry);
  const shortForm = (value: string, key?: string) => {
    if (!/.*\..*/.test(value)) throw invalid(value, 'Incorrect Format. Please use e.g. tag.recipes');
    const [resourceKey = '', slug = ''] = value.split('.');
    const config = Object.hasOwn(QUERY, resourceKey) ? QUERY[resourceKey] : undefined;
    if (!config || config.internal) {
      throw errors.validation({ message: `Resource key not supported. ${resourceKey}`, help: 'Please use: tag, user, post or page.' });
    }
    spec.query[key ?? resourceKey] = { type: 'read', resource: config.resource as DataResource, options: { ...config.options, slug } };
    addRouter(config.resource, { slug, redirect: true });
  };
  if (typeof data === 'string') {
    shortForm(data);
    return spec;
  }
  if (!isMap(data)) return spec;
  for (const [key, value] of Object.entries(data)) {
    if (['resource', 'type', 'limit', 'order', 'include', 'filter', 'status', 'visibility', 'slug', 'redirect'].includes(key)) {
      // Ghost's message for this case is missing from its table, so its default message shows.
      throw errors.validation({ help: 'Example:\n data:\n  my-tag:\n    resource: tags\n    ...\n' });
    }
    if (key === 'author') throw errors.validation('Please choose a different name. We recommend not using author.');
    if (typeof value === 'string') {
      shortForm(value, key);
      continue;
    }
    const entry = isMap(value) ? value : {};
    for (const option of ['type', 'resource'] as const) {
      if (!Object.hasOwn(entry, option)) throw invalid(JSON.stringify(value), `${option} is required.`);
      const allowed = option === 'type' ? ['read', 'browse'] : RESOURCES;
      if (!allowed.includes(entry[option] as never)) {
        throw invalid(JSON.stringify(value), `${String(entry[option])} not supported. Please use ${[...new Set(allowed)].join(',')}.`);
      }
    }
    const config = Object.values(QUERY).find((candidate) => candidate.resource === entry.resource)!;
    const options: Record<string, unknown> = {};
    for (const option of ['limit', 'order', 'filter', 'include', 'slug', 'visibility', 'status', 'page']) {
      if (Object.hasOwn(entry, option)) options[option] = entry[option];
    }
    const type = entry.type as 'read' | 'browse';
    spec.query[key] = { type, resource: config.resource as DataResource, options: type === 'read' ? { ...config.options, ...options } : options };
    if (type === 'read') {
      addRouter(config.resource, { ...(typeof entry.slug === 'string' ? { slug: entry.slug } : {}), redirect: entry.redirect !== false });
    } else addRouter(config.resource, { redirect: true });
  }
  return spec;
}
