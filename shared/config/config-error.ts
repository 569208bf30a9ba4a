/** A bad or missing setting: the process prints the message and exits. */
export class ConfigError extends Error {}
