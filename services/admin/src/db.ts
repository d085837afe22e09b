import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface AdminDB {
  admins: {
    id: Generated<string>;
    name: string;
    email: string;
    password_hash: string;
    failed_logins: Generated<number>;
    last_failed_at: NullableTimestamp;
    created_at: Timestamp;
  };
  sessions: { jti: string; admin_id: string; issued_at: Timestamp; expires_at: Timestamp; revoked_at: NullableTimestamp };
  feedback: {
    id: Generated<string>;
    name: string;
    email: string;
    message: string;
    book_id: string | null;
    book_title: string | null;
    created_at: Timestamp;
    handled_at: NullableTimestamp;
    handled_by: ColumnType<string | null, string | null | undefined, string | null>;
    answer: ColumnType<string | null, string | null | undefined, string | null>;
    answered_at: NullableTimestamp;
    answered_by: ColumnType<string | null, string | null | undefined, string | null>;
  };
  subscribers: { email: string; subscribed_at: Timestamp };
  audit_log: {
    id: Generated<number>;
    event_id: string | null;
    type: string;
    summary: string;
    subject_id: string | null;
    actor: string | null;
    occurred_at: Timestamp;
    /** The user action that caused the event (null for entries older than the column). */
    correlation_id: ColumnType<string | null, string | null | undefined, string | null>;
  };
  outbox: any;
  inbox: any;
}
