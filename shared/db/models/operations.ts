import { Model } from 'objection';
import type { OperationKind } from '../../domains/operations/operation-kinds.ts';

/** Long work: an operation and its steps (shared/domains/operations). */

export type OperationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Why an operation failed: the step, a message a user can act on, and what the command printed. */
export type OperationError = { step: string | null; message: string; exit_code?: number | null; stderr_tail?: string | null };

export class Operation extends Model {
  static override tableName = 'operations';
  declare id: string;
  declare team_id: number | null;
  /** One of the catalogue's kinds (shared/domains/operations/operation-kinds.ts). */
  declare kind: OperationKind;
  declare target_type: string;
  declare target_id: string;
  declare status: OperationStatus;
  declare progress: number;
  declare input: Record<string, unknown>;
  declare result: unknown;
  declare error: OperationError | null;
  declare serial_keys: string[];
  declare created_by_user_id: number | null;
  declare attempts: number;
  declare deadline_seconds: number;
  declare deadline_at: Date | null;
  declare cancel_requested_at: Date | null;
  declare created_at: Date;
  declare started_at: Date | null;
  declare finished_at: Date | null;
  declare updated_at: Date;
}

export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export class OperationStep extends Model {
  static override tableName = 'operation_steps';
  static override idColumn = ['operation_id', 'position'];
  declare operation_id: string;
  declare position: number;
  declare name: string;
  declare status: StepStatus;
  declare cancellable: boolean;
  declare attempts: number;
  declare result: unknown;
  declare started_at: Date | null;
  declare finished_at: Date | null;
}
