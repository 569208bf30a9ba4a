export { Berth, SDK_VERSION, type BerthOptions } from './berth.ts';
export type { SignInOptions, DeviceApprovalInfo } from './sign-in.ts';
export {
  BerthError,
  BerthConnectionError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  ValidationError,
  RateLimitError,
  type ErrorDetails,
} from './errors.ts';
export { OperationFailedError, OperationTimeoutError, type OperationDetail, type WaitOptions } from './wait-for-operation.ts';
export type { Page, Pagination } from './page.ts';
export type { RequestOptions, BinaryBody } from './request-options.ts';
export type { OperationSpec } from './operation-spec.ts';
export { OPERATIONS, type OperationId, type OperationTypes } from './generated/operations.ts';
export type { BerthApi } from './generated/api.ts';
export type { paths, operations, components, webhooks } from './generated/schema.ts';

import type { components } from './generated/schema.ts';
type Schemas = components['schemas'];
export type Site = Schemas['Site'];
export type Environment = Schemas['Environment'];
export type Backup = Schemas['Backup'];
export type Operation = Schemas['Operation'];
export type Plugin = Schemas['Plugin'];
export type SftpUser = Schemas['SftpUser'];
