/**
 * pg-boss keeps each queue in a row of pgboss.queue and a partition made by its own function; a copy
 * of the database (PGlite → PostgreSQL, a restored backup) makes each queue again through that
 * function with the options of its row.
 */
export const CREATE_QUEUE_SQL = 'select pgboss.create_queue($1, $2::json)';

/** The arguments of CREATE_QUEUE_SQL for one row of pgboss.queue. */
export function createQueueArgs(q: Record<string, unknown>): [unknown, string] {
  return [
    q.name,
    JSON.stringify({
      policy: q.policy,
      retryLimit: q.retry_limit,
      retryDelay: q.retry_delay,
      retryBackoff: q.retry_backoff,
      expireInSeconds: q.expire_seconds,
      retentionMinutes: q.retention_minutes,
      deadLetter: q.dead_letter,
    }),
  ];
}
