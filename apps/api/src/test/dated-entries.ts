// Test helpers (imported by tests only) for a client's dated entries, payments and on-demand
// support hours: the same add, update, delete, refusal and tenancy behaviour, checked alike for each.
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { helsinkiDay, message, type MessageCode } from '@kulu/shared';
import { clientPayments, onDemandSupport } from '../db/schema/index.js';
import { expectEachStatus, expectSameBadBody, loggedFor, Wing } from './client-wing.js';
import { useOwnApp } from './fixtures.js';

const DAY = 86_400_000;

/**
 * The sections of dated entries: the entries' path under the client (`/api/clients/:id/<path>`),
 * the key an answer gives the saved entry under, its entity and area in the activity log, and its
 * table.
 */
const SECTIONS = {
  payments: { path: 'payments', key: 'payment', entity: 'payment', area: 'payments', table: clientPayments },
  supportHours: {
    path: 'support-hours',
    key: 'support',
    entity: 'supportHours',
    area: 'support',
    table: onDemandSupport,
  },
} as const;
type Name = keyof typeof SECTIONS;
type RowOf<K extends Name> = (typeof SECTIONS)[K]['table']['$inferSelect'];
type OtherOf<K extends Name> = Omit<(typeof SECTIONS)[K]['table']['$inferInsert'], 'clientId'>;

/**
 * A section's entries under the demo clients, as its tests reach them, and the checks that hold
 * for each section alike. The app, the wing's tokens and clients and the other client's entry are
 * set before the file's tests run (`useDatedEntries`).
 */
export class DatedEntries<K extends Name = Name> extends Wing {
  /** The other client's one entry. */
  otherEntryId!: number;
  private readonly section: (typeof SECTIONS)[Name];

  constructor(
    name: K,
    private readonly other: (today: string) => OtherOf<K>,
  ) {
    // The demo consultant keeps only the first company: the other is "another client" to them too.
    super({ consultantKeepsOne: true });
    this.section = SECTIONS[name];
  }

  /** The entries' URL under a client (the company admin's by default). */
  base = (clientId = this.clientId): string => `/api/clients/${clientId}/${this.section.path}`;

  /** A client's rows (the company admin's by default), read from the table. */
  rows = (clientId = this.clientId): Promise<RowOf<K>[]> => {
    const { table } = this.section;
    return this.t.deps.database.db.select().from(table).where(eq(table.clientId, clientId)) as Promise<
      RowOf<K>[]
    >;
  };

  /** Adds an entry to the company admin's client (as the admin by default). */
  add = (payload: object, token = this.admin) =>
    this.t.inject({ method: 'POST', url: this.base(), token, payload });

  /** Today in Helsinki by the app's clock. */
  today = (): string => helsinkiDay(this.t.deps.now());

  /** The Helsinki day `days` from now by the app's clock. */
  dayFrom = (days: number): string => helsinkiDay(new Date(this.t.deps.now().getTime() + days * DAY));

  /** Signs in the wing and writes the other client's entry directly, as `other` gives it. */
  override async setUp(): Promise<void> {
    await super.setUp();
    const { table } = this.section;
    const [row] = await this.t.deps.database.db
      .insert(table)
      .values({ ...this.other(this.today()), clientId: this.otherClientId })
      .returning({ id: table.id });
    this.otherEntryId = row.id;
  }

  private put(id: number, payload: object) {
    return this.t.inject({ method: 'PUT', url: `${this.base()}/${id}`, token: this.admin, payload });
  }

  private logOf(id: number) {
    return loggedFor(this.t, this.section.entity, id);
  }

  /** Adds an entry (201): its id. */
  private async added(payload: object): Promise<number> {
    const res = await this.add(payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()[this.section.key].id as number;
  }

  /**
   * Adds `payload` to the company admin's client: 201 with `code`'s message and the entry as
   * `saved`, and one log entry of its create in the section's area, with the entry as written.
   */
  async expectAddedLogged(code: MessageCode, payload: object, saved: object): Promise<void> {
    const res = await this.add(payload);
    expect(res.statusCode).toBe(201);
    const { clientId, section } = this;
    expect(res.json()).toMatchObject({
      code,
      message: message(code, 'en'),
      [section.key]: { clientId, ...saved },
    });
    const logged = { area: section.area, action: 'create', clientId, after: saved };
    expect(await this.logOf(res.json()[section.key].id as number)).toMatchObject([logged]);
  }

  /** Each payload is refused with `code`'s message on `field`, and the table is left as it was. */
  async expectEachRefused(code: MessageCode, field: string, payloads: object[]): Promise<void> {
    const before = await this.rows();
    for (const payload of payloads) {
      const res = await this.add(payload);
      const label = JSON.stringify(payload);
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toMatchObject({
        code,
        message: message(code, 'en'),
        fields: { [field]: 'invalid' },
      });
    }
    expect(await this.rows()).toEqual(before);
  }

  /**
   * Never a 5xx on bad input: an empty body is a 400 naming each field of `valid` required, and
   * `valid` with one field set to each of its `invalid` values a 400 naming that field invalid.
   */
  async expectFieldIssues(valid: Record<string, unknown>, invalid: Record<string, unknown[]>): Promise<void> {
    const required = Object.fromEntries(Object.keys(valid).map((field) => [field, 'required']));
    const cases: Array<[object, Record<string, string>]> = [[{}, required]];
    for (const [field, values] of Object.entries(invalid)) {
      for (const value of values) cases.push([{ ...valid, [field]: value }, { [field]: 'invalid' }]);
    }
    for (const [payload, fields] of cases) {
      const res = await this.add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields, JSON.stringify(payload)).toMatchObject(fields);
    }
  }

  /**
   * An entry added as `created` is updated to `payload`: 200 with `code`'s message and the saved
   * entry, logged as an update; each of `bad` is then a 400 that changes neither the table nor the
   * log. The entry's log (create, update), for its before and after.
   */
  async expectUpdatedLogged(code: MessageCode, change: { created: object; payload: object; bad: object[] }) {
    const id = await this.added(change.created);
    const res = await this.put(id, change.payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code,
      message: message(code, 'en'),
      [this.section.key]: { id, ...change.payload },
    });
    const log = await this.logOf(id);
    expect(log.map((l) => l.action)).toEqual(['create', 'update']);

    const before = await this.rows();
    for (const payload of change.bad) {
      const bad = await this.put(id, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await this.rows()).toEqual(before);
    expect(await this.logOf(id)).toHaveLength(2);
    return log;
  }

  /**
   * An entry added as `created` is deleted: 200 with `code`'s message, gone from the table, logged
   * as a delete; a second delete is a 404. The entry's log (create, delete).
   */
  async expectDeletedLogged(code: MessageCode, created: object) {
    const id = await this.added(created);
    const del = () => this.t.inject({ method: 'DELETE', url: `${this.base()}/${id}`, token: this.admin });
    const res = await del();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code, message: message(code, 'en') });
    expect((await this.rows()).some((r) => r.id === id)).toBe(false);
    const log = await this.logOf(id);
    expect(log.map((l) => l.action)).toEqual(['create', 'delete']);
    expect((await del()).statusCode).toBe(404);
    return log;
  }

  /** Company users may neither list nor add entries (403); `valid` is a body that would be added. */
  async expectClosedToCompanyUsers(valid: object): Promise<void> {
    await expectEachStatus(this.t, [this.companyAdmin, this.clientUser], 403, [
      ['GET', this.base()],
      ['POST', this.base(), valid],
    ]);
  }

  /**
   * The other client's entry under this client is a 404 to the admin, read, updated with `valid`
   * or deleted; `bad` is the same 400 as for an unknown id; and the entry stays.
   */
  async expectOtherClientsEntryHidden(valid: object, bad: object): Promise<void> {
    const url = `${this.base()}/${this.otherEntryId}`;
    const call = (method: 'GET' | 'PUT' | 'DELETE', payload?: object) =>
      this.t.inject({ method, url, token: this.admin, payload });
    expect((await call('GET')).statusCode).toBe(404);
    expect((await call('PUT', valid)).statusCode).toBe(404);
    await expectSameBadBody(this.t, this.admin, { foreign: url, unknown: `${this.base()}/999999` }, bad);
    expect((await call('DELETE')).statusCode).toBe(404);
    expect((await this.rows(this.otherClientId)).map((r) => r.id)).toEqual([this.otherEntryId]);
  }

  /**
   * A consultant without the other client lists this client's entries, but every route of the
   * other's is a 404 to them, with a body (`valid`, or the bad `bad`) or not; its entries stay.
   */
  async expectConsultantLimited(valid: object, bad: object): Promise<void> {
    const list = await this.t.inject({ method: 'GET', url: this.base(), token: this.consultant });
    expect(list.statusCode).toBe(200);
    const other = this.base(this.otherClientId);
    await expectEachStatus(this.t, this.consultant, 404, [
      ['GET', other],
      ['POST', other, bad],
      ['GET', `${other}/${this.otherEntryId}`],
      ['PUT', `${other}/${this.otherEntryId}`, valid],
      ['DELETE', `${other}/${this.otherEntryId}`],
    ]);
    expect((await this.rows(this.otherClientId)).map((r) => r.id)).toEqual([this.otherEntryId]);
  }
}

/**
 * A section's entries for the file's tests: the test app, created before them with the wing
 * signed in and the other client's one entry (`other`), closed after.
 */
export function useDatedEntries<K extends Name>(
  name: K,
  other: (today: string) => OtherOf<K>,
): DatedEntries<K> {
  return useOwnApp(new DatedEntries(name, other));
}
