/**
 * Plain data models: no hooks, no side effects. Queries pass the knex instance or transaction
 * explicitly (`User.query(trx)`), so nothing depends on a global connection. One file per domain
 * under models/; this module gathers them, so code imports every model from one place.
 */
export * from './models/accounts.ts';
export * from './models/operations.ts';
export * from './models/fleet.ts';
export * from './models/sites.ts';
export * from './models/backups.ts';
export * from './models/domains.ts';
export * from './models/sftp.ts';
