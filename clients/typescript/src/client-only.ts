// The client alone (no framework package needed): `@mnemod/client/client`.
export { MnemoClient, type ClientOptions } from './client.js';
export * from './errors.js';
export * from './types.js';
export { uuidv7 } from './ids.js';
export type { RetryOptions, TransportOptions } from './transport.js';
