/** A setting that cannot be used as given: the process says which, in one line, and does not start. */
export class ConfigError extends Error {}
