/** A team's webhook endpoint, as stored (the secrets sealed). */
export type EndpointRow = {
  id: number;
  team_id: number;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  disabled_at: Date | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_mail_pending: boolean;
  created_by_user_id: number | null;
  created_at: Date;
  updated_at: Date;
};

export type DeliveryRow = {
  id: string;
  endpoint_id: number;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  manual: boolean;
  attempts: number;
  next_attempt_at: Date | null;
  leased_until: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

export type AttemptRow = {
  id: number;
  delivery_id: string;
  number: number;
  started_at: Date;
  duration_ms: number;
  request_headers: Record<string, string>;
  request_body: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  error: string | null;
};

export type EventRow = { id: string; team_id: number; type: string; body: string; created_at: Date; fanned_out_at: Date | null };
