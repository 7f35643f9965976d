/** Entry point of `npm start`: configuration, then the service; SIGTERM/SIGINT stop it gracefully. */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { startService } from './service.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    service.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: 'failed to start', error: String(err?.message ?? err) })}\n`);
  process.exit(1);
});
