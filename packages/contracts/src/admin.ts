// The admin service's wire shapes (spec §3, §7; DESIGN §6): login, feedback,
// newsletter, audit log.
import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, Id, PageQuery, PlainText } from './common';

export const LoginBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const AdminProfile = Type.Object({ name: Type.String(), email: Type.String() });
export type AdminProfile = Static<typeof AdminProfile>;

export const LoginData = Type.Object({ token: Type.String(), admin: AdminProfile });
export type LoginData = Static<typeof LoginData>;

export const FeedbackBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    email: Type.String({ format: 'email', maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }),
    bookId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type FeedbackBody = Static<typeof FeedbackBody>;

/** A feedback or contact message; `bookId` is null for general messages ("General" in the admin list). */
export const Feedback = Type.Object({
  _id: Id,
  name: Type.String(),
  email: Type.String(),
  message: Type.String(),
  bookId: Type.Union([Type.Object({ _id: Id, title: Type.String() }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  /** Dealt with: when, and by which administrator (their e-mail address); null while it waits. */
  handled: Type.Union([Type.Object({ at: Type.String({ format: 'date-time' }), by: Type.String() }), Type.Null()]),
  /** The answer e-mailed to the sender through the shop's mail, when one was sent. */
  answer: Type.Union([Type.Object({ text: Type.String(), at: Type.String({ format: 'date-time' }), by: Type.String() }), Type.Null()]),
});
export type Feedback = Static<typeof Feedback>;

/** The feedback list's states: the messages still waiting (the admin page's first view), or those dealt with. */
export const FEEDBACK_STATES = ['unhandled', 'handled'] as const;
export type FeedbackState = (typeof FEEDBACK_STATES)[number];

/** `PATCH /api/feedback/:id`: marks a message handled, or waiting again. */
export const FeedbackHandledBody = Type.Object({ handled: Type.Boolean() }, { additionalProperties: false });
export type FeedbackHandledBody = Static<typeof FeedbackHandledBody>;

/** An answer's length: a few paragraphs, as a message's. */
export const FEEDBACK_ANSWER_MAX_CHARS = 5000;

/** `POST /api/feedback/:id/answer`: the answer e-mailed to the sender (once per message); the message is then handled. */
export const FeedbackAnswerBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: FEEDBACK_ANSWER_MAX_CHARS, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type FeedbackAnswerBody = Static<typeof FeedbackAnswerBody>;

const SEARCH_TEXT = PlainText({ maxLength: 100 });

/** `GET /api/feedback/all`: newest first, a page at a time, from a day on; `search` finds an e-mail (exact or its beginning) or a name (tolerant of a typo). */
export const FeedbackQuery = Type.Object(
  {
    search: Type.Optional(SEARCH_TEXT),
    /** Messages received on this day of the shop (India time) or later: the dashboard's new messages. */
    from: Type.Optional(Type.String({ format: 'date' })),
    /** Only the messages still waiting, or only those dealt with; absent: all. */
    state: Type.Optional(Type.Union(FEEDBACK_STATES.map((state) => Type.Literal(state)))),
    ...PageQuery,
    ...CursorQuery,
  },
  { additionalProperties: false },
);
export type FeedbackQuery = Static<typeof FeedbackQuery>;

export const SubscribeBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 200 }) }, { additionalProperties: false });
export type SubscribeBody = Static<typeof SubscribeBody>;

export const Subscriber = Type.Object({ email: Type.String(), subscribedAt: Type.String({ format: 'date-time' }) });
export type Subscriber = Static<typeof Subscriber>;

/** `GET /api/admin/subscribers`: newest first, a page at a time; `search` finds an e-mail address by its beginning. */
export const SubscriberQuery = Type.Object({ search: Type.Optional(SEARCH_TEXT), ...PageQuery, ...CursorQuery }, { additionalProperties: false });
export type SubscriberQuery = Static<typeof SubscriberQuery>;

/** `GET /api/admin/subscribers/export` takes no query. */
export const SubscriberExportQuery = Type.Object({}, { additionalProperties: false });

/** The columns of `subscribers.csv`. */
export const SUBSCRIBERS_CSV_HEADER = ['Email', 'Subscribed At'] as const;

export const AuditEntry = Type.Object({
  _id: Type.String(),
  type: Type.String(),
  summary: Type.String(),
  subjectId: Type.Union([Type.String(), Type.Null()]),
  actor: Type.Union([Type.String(), Type.Null()]),
  occurredAt: Type.String({ format: 'date-time' }),
  /** The correlation id of the user action behind the event: search the logs for it. */
  correlationId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 60 })),
    /** What an entry is about: an order's, a book's… id (the order page's timeline). */
    subject: Type.Optional(Type.String({ format: 'uuid' })),
    ...PageQuery,
    ...CursorQuery,
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

/** The internal session check's answer (GET /internal/sessions/:jti): the session is active; a 404 when not. */
export const SessionStatus = Type.Object({ active: Type.Literal(true) });
