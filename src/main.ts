import { loadConfig, ConfigError, type Config } from './config.js';
import { connect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { buildApp } from './app.js';
import { warmRenderers } from './content/render.js';
import { resolveSecretsKey, secretBox } from './auth/secret-box.js';
import { sealStoredSecrets } from './auth/authenticator.js';

const RENDERER_WARM_DELAY_MS = 2000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`quire: configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

async function main() {
  const config = readConfig();
  const connection = connect(config.databaseUrl);
  await migrateToLatest(connection);
  const secretsKey = resolveSecretsKey(config);
  const secrets = secretBox(secretsKey.key);
  const app = await buildApp({ config, connection, logger: { level: config.logLevel }, secrets });
  // Said at every start: instances with their own CONTENT_DIR would each make a key and fail to open the
  // secrets another one sealed.
  if (secretsKey.file)
    app.log.info(
      { file: secretsKey.file },
      'SECRETS_KEY is not set: secrets are sealed with the key in this file; give every instance the same SECRETS_KEY unless they share CONTENT_DIR',
    );
  const sealed = await sealStoredSecrets(connection.db, secrets);
  if (sealed > 0) app.log.info({ sealed }, 'sealed authenticator secrets stored before sealing');
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ siteUrl: config.siteUrl, database: config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') }, 'quire is ready');
  // The renderers' first use costs ~0.5 s of blocked event loop (jsdom). Paid right after listen it would
  // delay the first answers (health checks, the first reads); a moment later it is off every critical path.
  setTimeout(() => {
    warmRenderers().catch((err: unknown) => app.log.warn({ err }, 'warming the content renderers failed'));
  }, RENDERER_WARM_DELAY_MS).unref();

  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await connection.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error('quire: failed to start:', err);
  process.exit(1);
});
