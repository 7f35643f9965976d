/**
 * Entry point of `npm start`: configuration (the environment, over `.env`), then the service; SIGTERM, SIGINT and
 * SIGHUP stop it gracefully.
 */
import { ConfigError, loadConfig, loadEnvironmentFile } from './config.js';
import { createLogger } from './log.js';
import { type RunningService, startService } from './service.js';

/**
 * What a stop may take past SHUTDOWN_GRACE_MS: the service's close waits that long for requests in flight, then up to
 * 5 s for connector runs to reach their next page (docs/operations.md#restarts-and-deploys). A stop that still hangs
 * (a stuck driver) exits anyway: a process manager's stop, or a terminal's close, must end the process.
 */
const STOP_AFTER_GRACE_MS = 7_000;

async function main() {
  let config;
  let envFile;
  try {
    envFile = loadEnvironmentFile();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  if (envFile) logger.info({ env_file: envFile }, 'settings read from the file, where the environment does not set them');
  // Listened for before the service starts: a stop sent while it starts (its `listening` line is out before the rest
  // has started) waits for the start to finish, then drains, instead of killing it half-started.
  let service: RunningService | undefined;
  let stopAsked: string | undefined;
  const stop = (signal: string) => {
    if (!service) {
      stopAsked ??= signal;
      return;
    }
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ signal, waited_ms: config.shutdownGraceMs + STOP_AFTER_GRACE_MS }, 'shutdown did not finish: exiting');
      process.exit(1);
    }, config.shutdownGraceMs + STOP_AFTER_GRACE_MS).unref();
    service.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // SIGHUP: the terminal closed, or npm went away (scripts/start.mjs). A second signal of a kind ends the process at once.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  service = await startService(config, logger);
  if (stopAsked) stop(stopAsked);
}

main().catch((err) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: 'failed to start', error: String(err?.message ?? err) })}\n`);
  process.exit(1);
});
