// One logger for the whole server. Every line passes through `maskSecrets`, so a
// connection string that ends up in an error message or a file name never shows its
// password in the client's output channel. The masking is the plugin's own (the one its
// messages use), from its import-free `/mask`: loaded before the engine, without ESLint.
import { maskSecrets } from 'eslint-plugin-retry-safety/mask';

export { maskSecrets };

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  /** Only written when `trace.server` is `verbose`. */
  debug(message: string): void;
}

interface LogSink {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  log(message: string): void;
}

/** Describes a thrown value in one masked line (with its stack when there is one). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

export function createLogger(sink: LogSink, isVerbose: () => boolean): Logger {
  return {
    error: (message) => sink.error(maskSecrets(message)),
    warn: (message) => sink.warn(maskSecrets(message)),
    info: (message) => sink.info(maskSecrets(message)),
    debug: (message) => {
      if (isVerbose()) sink.log(maskSecrets(message));
    },
  };
}
